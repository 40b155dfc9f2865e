"""The worked example of a harness mapping for the jobs area: in your project this file is one
line per area, a call into your own code, e.g. def jobs(case): return {"text": myproject.jobs.note(case)}.
It is written out here so that the example runs on its own."""

from lembas_adapter.types import JobsAnswer, JobsCase

# ---- The worked example: the jobs area ---------------------------------------------------------
# A case is the object in conformance/jobs.json without "expect"; the answer has the shape of
# "expect": {"text": the note}. In your project this whole section is one line, e.g.
#     def jobs(case: JobsCase) -> JobsAnswer: return {"text": myproject.jobs.note(case)}
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


def jobs(case: JobsCase) -> JobsAnswer:
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
            note += "\n[worktree] " + get("worktree", "")
        return {"text": note}
    if kind == "message":
        return {"text": MARKS["message"] + "\n" + f"{get('id', '')} ({get('agent', '')}: {get('description', '')}):\n{get('text', '')}"}
    if kind == "to_subagent":
        return {"text": MARKS["to_subagent"] + "\n" + get("text", "")}
    raise ValueError(f"no note for a job of kind {kind!r}")
