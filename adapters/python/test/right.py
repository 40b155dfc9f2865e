"""A handler of the right type: pyright passes (the kit's own type test, run by adapters/kitgen)."""
from lembas_adapter import Handlers
from lembas_adapter.types import JobsAnswer, JobsCase


def jobs(case: JobsCase) -> JobsAnswer:
    return {"text": case["kind"]}


handlers: Handlers = {"jobs": jobs}
