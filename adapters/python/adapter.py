#!/usr/bin/env python3
"""A lembas-check adapter for a Python implementation of harness spec 3.1.0.

Copy this file into your project (say test/lembas_adapter.py), replace the `jobs` worked example
with a call into your own code, and wire the other areas the same way, one function each. Then:

    lembas-check smoke --impl 'python3 test/lembas_adapter.py'   # is the adapter itself sound?
    lembas-check run   --impl 'python3 test/lembas_adapter.py'   # the whole suite through it

The protocol (docs/protocol.md in lembas-check) in three lines: JSON Lines on stdin and stdout,
one answer per request, in order; stdout carries protocol lines only, so log to stderr; exit when
you read {"cmd": "bye"} or stdin ends. Standard library only.
"""

import json
import sys

PROTOCOL = 1

# What the adapter says of itself in its hello answer; lembas-check prints it in every report.
IMPLEMENTATION = {
    "name": "example Python adapter",
    "version": "0.1.0",
    "language": "python",
    "harness_spec": "3.1.0",
    "homepage": "https://github.com/LLeMbas/lembas-check/tree/main/adapters/python",
}


# ---- The worked example: the jobs area ---------------------------------------------------------
# A case is the object in conformance/jobs.json without "expect"; the answer has the shape of
# "expect": {"text": the note}. In your project this whole section is one line, e.g.
#     def jobs(case): return {"text": myproject.jobs.note(case)}
# It is written out here so that the example runs on its own. The marks are loop.json
# `jobs.marks`; the other words are the ones conformance/jobs.json fixes.

MARKS = {
    "command": "[A background job you started has finished:]",
    "subagent": "[A subagent you started has finished:]",
    "message": "[A message from a subagent you started:]",
    "to_subagent": "[The main agent sent this while you were working — take it into account from here:]",
}

ENDED = {
    "stop": "finished",
    "stopped": "was stopped",
    "steps": "stopped at its step limit",
    "budget": "stopped at its budget",
    "error": "failed",
}

COMMAND_LINE_MAX = 120  # characters of a command's first line that a note shows


def duration(seconds):
    """5s, 1m 05s, 2h 03m: the two largest units, the second with two digits."""
    s = max(0, seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m {s % 60:02d}s"
    return f"{s // 3600}h {s % 3600 // 60:02d}m"


def command_line(command):
    return command.split("\n", 1)[0][:COMMAND_LINE_MAX]


def subagent_tail(agent, steps, tools, reason, error):
    if reason == "stop":
        end = ""
    elif reason == "error" and error:
        end = f" · ended: error — {error}"
    else:
        end = f" · ended: {reason}"
    step_word = "step" if steps == 1 else "steps"
    tool_word = "tool call" if tools == 1 else "tool calls"
    return f"[{agent} subagent · {steps} {step_word} · {tools} {tool_word}{end}]"


def jobs(case):
    kind = case["kind"]
    get = case.get
    if kind == "command":
        code = get("exit")  # null: stopped by a signal
        how = "stopped (SIGTERM)" if code is None else f"exited with {code}"
        note = f"{get('id', '')} ({command_line(get('command', ''))}) {how} after {duration(get('seconds', 0))}."
        unread = get("unread", "")
        if unread.strip():
            note += "\nOutput you had not read:\n" + unread.removesuffix("\n")
        else:
            note += " It printed nothing you had not read."
        return {"text": MARKS["command"] + "\n" + note}
    if kind == "subagent":
        reason = get("reason", "")
        ended = ENDED.get(reason, f"ended: {reason}")
        head = f"{get('id', '')} ({get('agent', '')}: {get('description', '')}) {ended} after {duration(get('seconds', 0))}."
        report = get("report", "").strip() or "(the subagent returned no report)"
        tail = subagent_tail(get("agent", ""), get("steps", 0), get("tools", 0), reason, get("error", ""))
        note = MARKS["subagent"] + "\n" + head + "\n" + report + "\n\n" + tail
        if get("worktree"):
            note += "\n[worktree] " + case["worktree"]
        return {"text": note}
    if kind == "message":
        return {"text": MARKS["message"] + "\n" + f"{get('id', '')} ({get('agent', '')}: {get('description', '')}):\n{get('text', '')}"}
    if kind == "to_subagent":
        return {"text": MARKS["to_subagent"] + "\n" + get("text", "")}
    raise ValueError(f"no note for a job of kind {kind!r}")


# ---- Areas -------------------------------------------------------------------------------------
# Every area lembas-check checks, listed in hello so that each case is sent here; an area not
# wired yet answers "skip", which lembas-check reports as skipped (not failed). Wire one by putting
# your function in place of None; drop an area your project will never have, and its cases are
# skipped without being sent.
AREAS = {
    # The spec's areas.
    "chunk_tokens": None,
    "context": None,
    "fs_access": None,
    "instructions": None,
    "jobs": jobs,
    "prefix": None,
    # lembas-check's own, from the designs beside the spec (docs/areas.md).
    "chunk": None,
    "modules": None,
    "search": None,
    "workspace": None,
}


def answer(area, case):
    fn = AREAS.get(area)
    if fn is None:
        return {"skip": f"the {area} area is not wired to this implementation yet"}
    try:
        return {"answer": fn(case)}
    except Exception as e:  # the implementation failed on this case: say so and keep serving
        return {"error": f"{type(e).__name__}: {e}"}


# ---- The protocol loop -------------------------------------------------------------------------

def reply(obj):
    # One line, flushed at once: lembas-check waits for it (a buffered answer is a timeout).
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main():
    sys.stdin.reconfigure(encoding="utf-8")
    while True:
        line = sys.stdin.readline()
        if not line:
            return  # stdin closed: lembas-check is gone
        try:
            msg = json.loads(line)
        except ValueError as e:
            reply({"error": f"not a JSON line: {e}"})
            continue
        cmd = msg.get("cmd")
        if cmd == "hello":
            if msg.get("protocol") != PROTOCOL:
                reply({"protocol": PROTOCOL, "error": f"this adapter speaks protocol {PROTOCOL}"})
            else:
                reply({"protocol": PROTOCOL, "implementation": IMPLEMENTATION, "areas": sorted(AREAS)})
        elif cmd == "run":
            reply({"seq": msg["seq"], **answer(msg["area"], msg["case"])})
        elif cmd == "bye":
            return
        else:
            reply({"seq": msg.get("seq"), "error": f"unknown cmd {cmd!r}"})


if __name__ == "__main__":
    main()
