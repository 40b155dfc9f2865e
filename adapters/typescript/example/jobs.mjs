// The worked example of a harness mapping for the jobs area: in your project this file is one line
// per area, a call into your own code, e.g.
//   export const jobs = (c) => ({ text: jobNote(c) });   // import { jobNote } from "../src/jobs/note.ts"
// It is written out here so that the example runs on its own.

// A case is the object in conformance/jobs.json without "expect"; the answer has the shape of
// "expect": {text: the note}. The marks are loop.json `jobs.marks`; the other words are the ones
// conformance/jobs.json fixes.

const MARKS = {
  command: "[A background job you started has finished:]",
  subagent: "[A subagent you started has finished:]",
  message: "[A message from a subagent you started:]",
  to_subagent: "[The main agent sent this while you were working — take it into account from here:]",
};

/** @type {Record<string, string>} */
const ENDED = {
  stop: "finished",
  stopped: "was stopped",
  steps: "stopped at its step limit",
  budget: "stopped at its budget",
  error: "failed",
};

const COMMAND_LINE_MAX = 120; // characters of a command's first line that a note shows

/** 5s, 1m 05s, 2h 03m: the two largest units, the second with two digits. */
function duration(/** @type {number} */ seconds) {
  const s = Math.max(0, seconds);
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${two(s % 60)}s`;
  return `${Math.floor(s / 3600)}h ${two(Math.floor((s % 3600) / 60))}m`;
}

/** The first line, cut at COMMAND_LINE_MAX characters (code points, not UTF-16 units). */
function commandLine(/** @type {string} */ command) {
  return Array.from(command.split("\n")[0]).slice(0, COMMAND_LINE_MAX).join("");
}

/** @param {string} agent @param {number} steps @param {number} tools @param {string} reason @param {string} error */
function subagentTail(agent, steps, tools, reason, error) {
  let end = ` · ended: ${reason}`;
  if (reason === "stop") end = "";
  else if (reason === "error" && error) end = ` · ended: error — ${error}`;
  const stepWord = steps === 1 ? "step" : "steps";
  const toolWord = tools === 1 ? "tool call" : "tool calls";
  return `[${agent} subagent · ${steps} ${stepWord} · ${tools} ${toolWord}${end}]`;
}

/** @param {import("../index.mjs").JobsCase} c @returns {import("../index.mjs").JobsAnswer} */
export function jobs(c) {
  const { id = "", agent = "", description = "", seconds = 0 } = c;
  switch (c.kind) {
    case "command": {
      const exit = c.exit ?? null;
      const how = exit === null ? "stopped (SIGTERM)" : `exited with ${exit}`;
      let note = `${id} (${commandLine(c.command ?? "")}) ${how} after ${duration(seconds)}.`;
      const unread = c.unread ?? "";
      note += unread.trim() !== ""
        ? "\nOutput you had not read:\n" + (unread.endsWith("\n") ? unread.slice(0, -1) : unread)
        : " It printed nothing you had not read.";
      return { text: MARKS.command + "\n" + note };
    }
    case "subagent": {
      const reason = c.reason ?? "";
      const ended = ENDED[reason] ?? `ended: ${reason}`;
      const head = `${id} (${agent}: ${description}) ${ended} after ${duration(seconds)}.`;
      const report = (c.report ?? "").trim() || "(the subagent returned no report)";
      let note = MARKS.subagent + "\n" + head + "\n" + report + "\n\n" +
        subagentTail(agent, c.steps ?? 0, c.tools ?? 0, reason, c.error ?? "");
      if (c.worktree) note += "\n[worktree] " + c.worktree;
      return { text: note };
    }
    case "message":
      return { text: MARKS.message + "\n" + `${id} (${agent}: ${description}):\n${c.text ?? ""}` };
    case "to_subagent":
      return { text: MARKS.to_subagent + "\n" + (c.text ?? "") };
  }
  throw new Error(`no note for a job of kind ${JSON.stringify(c.kind)}`);
}

