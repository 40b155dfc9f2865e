"""The debug mode's check of an answer against its area's answer schema (schemas.json, generated
by adapters/kitgen from `lembas-check schema`): the first fault with its path, as lembas-check
names it (`answer.text: want string, got null`), or "" when the answer fits."""

import json
import os
from typing import Any, Dict

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemas.json"), encoding="utf-8") as f:
    _SCHEMAS: Dict[str, Any] = json.load(f)


def _type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, (list, tuple)):
        return "array"
    return "object"


def _words(t: Any) -> str:
    return " or ".join(t) if isinstance(t, list) else str(t or "any value")


def _check(s: Dict[str, Any], v: Any, path: str) -> str:
    if "type" in s:
        want = s["type"] if isinstance(s["type"], list) else [s["type"]]
        got = _type(v)
        if got not in want and not (got == "integer" and "number" in want):
            return f"{path}: want {_words(s['type'])}, got {got}"
    if isinstance(v, (list, tuple)) and "items" in s:
        for i, x in enumerate(v):
            msg = _check(s["items"], x, f"{path}[{i}]")
            if msg:
                return msg
    elif isinstance(v, dict):
        props = s.get("properties", {})
        for k in s.get("required", []):
            if k not in v:
                return f"{path}.{k}: missing (want {_words(props[k].get('type'))})"
        for k in sorted(v):
            sub = props.get(k)
            if sub is None:
                extra = s.get("additionalProperties")
                if extra is False:
                    return f"{path}.{k}: unknown field"
                if not isinstance(extra, dict):
                    continue
                sub = extra
            msg = _check(sub, v[k], f"{path}.{k}")
            if msg:
                return msg
    return ""


def check_answer(area: str, answer: Any) -> str:
    s = _SCHEMAS.get(area)
    return _check(s, answer, "answer") if s else ""
