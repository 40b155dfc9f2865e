#!/usr/bin/env node
// A lembas-check adapter for a TypeScript (or JavaScript) implementation of harness spec 3.1.0.
//
// Copy this file into your project (say test/lembas-adapter.mjs), replace the `jobs` worked example
// with a call into your own code, and wire the other areas the same way, one function each. Then:
//
//   lembas-check smoke --impl 'node test/lembas-adapter.mjs'   # is the adapter itself sound?
//   lembas-check run   --impl 'node test/lembas-adapter.mjs'   # the whole suite through it
//
// It is plain ES module JavaScript with JSDoc types, so it runs on Node 20 with no build step and
// no dependency (Node 20 cannot strip TypeScript types). Under bun, or Node 22.6+ with
// --experimental-strip-types, it can be renamed .ts and import your .ts modules directly:
// `--impl 'bun run test/lembas-adapter.ts'`.
//
// The protocol (docs/protocol.md in lembas-check) in three lines: JSON Lines on stdin and stdout,
// one answer per request, in order; stdout carries protocol lines only, so log with
// console.error; exit when you read {"cmd": "bye"} or stdin ends.

import { createInterface } from "node:readline";

const PROTOCOL = 1;

/** What the adapter says of itself in its hello answer; lembas-check prints it in every report. */
const IMPLEMENTATION = {
  name: "example TypeScript adapter",
  version: "0.1.0",
  language: "typescript",
  harness_spec: "3.1.0",
  homepage: "https://github.com/LLeMbas/lembas-check/tree/main/adapters/typescript",
};

// ---- The worked example: the jobs area -----------------------------------------------------------
// A case is the object in conformance/jobs.json without "expect"; the answer has the shape of
// "expect": {text: the note}. In your project this whole section is one line, e.g.
//   const jobs = (c) => ({ text: jobNote(c) });   // import { jobNote } from "../src/jobs/note.ts"
// It is written out here so that the example runs on its own. The marks are loop.json
// `jobs.marks`; the other words are the ones conformance/jobs.json fixes.

/**
 * @typedef {object} JobCase
 * @property {"command"|"subagent"|"message"|"to_subagent"} kind
 * @property {string} [id]
 * @property {string} [command]
 * @property {number|null} [exit]   null: stopped by a signal
 * @property {number} [seconds]
 * @property {string} [unread]
 * @property {string} [agent]
 * @property {string} [description]
 * @property {string} [report]
 * @property {number} [steps]
 * @property {number} [tools]
 * @property {string} [reason]      stop, stopped, steps, budget or error
 * @property {string} [error]
 * @property {string} [worktree]
 * @property {string} [text]
 */

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

/** @param {JobCase} c @returns {{text: string}} */
function jobs(c) {
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

// ---- Areas ---------------------------------------------------------------------------------------
// Every area lembas-check checks, listed in hello so that each case is sent here; an area not
// wired yet answers "skip", which lembas-check reports as skipped (not failed). Wire one by putting
// your function in place of null; drop an area your project will never have, and its cases are
// skipped without being sent.

/** @type {Record<string, ((c: any) => unknown) | null>} */
const AREAS = {
  // The spec's areas.
  chunk_tokens: null,
  context: null,
  fs_access: null,
  instructions: null,
  jobs,
  prefix: null,
  // lembas-check's own, from the designs beside the spec (docs/areas.md).
  chunk: null,
  modules: null,
  search: null,
  workspace: null,
};

/** @param {string} area @param {unknown} c */
function answer(area, c) {
  const fn = AREAS[area];
  if (!fn) return { skip: `the ${area} area is not wired to this implementation yet` };
  try {
    return { answer: fn(c) };
  } catch (e) {
    // The implementation failed on this case: say so and keep serving.
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

// ---- The protocol loop ---------------------------------------------------------------------------

/** One line per answer; writes to a pipe are synchronous on Linux, so nothing waits in a buffer. */
function reply(/** @type {object} */ obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (e) {
    reply({ error: `not a JSON line: ${e}` });
    continue;
  }
  if (msg.cmd === "hello") {
    if (msg.protocol !== PROTOCOL) {
      reply({ protocol: PROTOCOL, error: `this adapter speaks protocol ${PROTOCOL}` });
    } else {
      reply({ protocol: PROTOCOL, implementation: IMPLEMENTATION, areas: Object.keys(AREAS).sort() });
    }
  } else if (msg.cmd === "run") {
    reply({ seq: msg.seq, ...answer(msg.area, msg.case) });
  } else if (msg.cmd === "bye") {
    process.exit(0);
  } else {
    reply({ seq: msg.seq, error: `unknown cmd ${JSON.stringify(msg.cmd)}` });
  }
}
