"""A handler of the wrong type: pyright must fail here (a number where the jobs answer has a string)."""
from lembas_adapter import Handlers
from lembas_adapter.types import JobsAnswer, JobsCase


def jobs(case: JobsCase) -> JobsAnswer:
    return {"text": case.get("seconds", 0)}


handlers: Handlers = {"jobs": jobs}
