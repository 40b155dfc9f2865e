"""lembas-adapter: the lembas-check adapter protocol's loop (docs/protocol.md) around one typed
handler per area (types.py, generated from the areas' schemas). An area without a handler is
answered skip, with the reason; a handler that raises is answered error, and the loop goes on.
Stdout carries protocol lines only: log to stderr. Standard library only."""

import json
import os
import sys
from typing import Any, Dict, Mapping, Optional

from .types import Handlers
from .validate import check_answer

PROTOCOL = 1


class Skip(Exception):
    """Raised by a handler for a case it does not map (an op it has no form for): answered skip,
    with the message as the reason, so the run says what is not checked rather than failing it."""

# Every area lembas-check checks, listed in hello so that each case is sent.
AREAS = ["chunk", "chunk_tokens", "context", "fs_access", "index", "instructions", "jobs", "loop",
         "modules", "prefix", "prompts", "search", "skills", "tools", "workspace"]

__all__ = ["AREAS", "PROTOCOL", "Handlers", "Skip", "serve"]


def _answer(handlers: Mapping[str, Any], area: str, case: Any, debug: bool) -> Dict[str, Any]:
    fn = handlers.get(area)
    if fn is None:
        return {"skip": f"the {area} area has no handler in this adapter yet"}
    try:
        answer = fn(case)
        bad = check_answer(area, answer) if debug else ""
        if bad:  # debug mode: an answer that does not fit its schema is an error, the field named
            sys.stderr.write(f"lembas adapter (debug): the {area} handler's {bad}\n")
            return {"error": f"the {area} handler's answer does not fit its schema: {bad}"}
        return {"answer": answer}
    except Skip as e:
        return {"skip": str(e)}
    except Exception as e:  # the implementation failed on this case: say so and keep serving
        return {"error": f"{type(e).__name__}: {e}"}


def _reply(obj: Dict[str, Any]) -> None:
    # One line, flushed at once: lembas-check waits for it (a buffered answer is a timeout).
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def serve(handlers: Handlers, implementation: Dict[str, str], debug: Optional[bool] = None) -> None:
    """Serve the protocol on stdin/stdout until bye or the end of stdin. In debug mode (debug, or
    LEMBAS_ADAPTER_DEBUG=1) each answer is checked against its area's schema first."""
    if debug is None:
        debug = os.environ.get("LEMBAS_ADAPTER_DEBUG") == "1"
    sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[attr-defined]
    table: Mapping[str, Any] = handlers  # type: ignore[assignment]
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError as e:
            _reply({"error": f"not a JSON line: {e}"})
            continue
        cmd = msg.get("cmd")
        if cmd == "hello":
            if msg.get("protocol") != PROTOCOL:
                _reply({"protocol": PROTOCOL, "error": f"this adapter speaks protocol {PROTOCOL}"})
            else:
                _reply({"protocol": PROTOCOL, "implementation": implementation, "areas": AREAS})
        elif cmd == "run":
            _reply({"seq": msg["seq"], **_answer(table, msg["area"], msg["case"], debug)})
        elif cmd == "bye":
            return
        else:
            _reply({"seq": msg.get("seq"), "error": f"unknown cmd {cmd!r}"})
