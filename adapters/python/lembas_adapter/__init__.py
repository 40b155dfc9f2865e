"""lembas-adapter: the lembas-check adapter protocol's loop (docs/protocol.md) around one typed
handler per area (types.py, generated from the areas' schemas). An area without a handler is
answered skip, with the reason; a handler that raises is answered error, and the loop goes on.
Stdout carries protocol lines only: log to stderr. Standard library only."""

import json
import sys
from typing import Any, Dict, Mapping

from .types import Handlers

PROTOCOL = 1

# Every area lembas-check checks, listed in hello so that each case is sent.
AREAS = ["chunk", "chunk_tokens", "context", "fs_access", "index", "instructions", "jobs",
         "modules", "prefix", "search", "workspace"]

__all__ = ["AREAS", "PROTOCOL", "Handlers", "serve"]


def _answer(handlers: Mapping[str, Any], area: str, case: Any) -> Dict[str, Any]:
    fn = handlers.get(area)
    if fn is None:
        return {"skip": f"the {area} area has no handler in this adapter yet"}
    try:
        return {"answer": fn(case)}
    except Exception as e:  # the implementation failed on this case: say so and keep serving
        return {"error": f"{type(e).__name__}: {e}"}


def _reply(obj: Dict[str, Any]) -> None:
    # One line, flushed at once: lembas-check waits for it (a buffered answer is a timeout).
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def serve(handlers: Handlers, implementation: Dict[str, str]) -> None:
    """Serve the protocol on stdin/stdout until bye or the end of stdin."""
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
            _reply({"seq": msg["seq"], **_answer(table, msg["area"], msg["case"])})
        elif cmd == "bye":
            return
        else:
            _reply({"seq": msg.get("seq"), "error": f"unknown cmd {cmd!r}"})
