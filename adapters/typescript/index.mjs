// @lembas-check/adapter: the adapter protocol's loop (docs/protocol.md in lembas-check) around
// one typed handler per area (types.d.ts, generated from the areas' schemas). An area without a
// handler is answered skip, with the reason; a handler that throws is answered error, and the
// loop goes on. Stdout carries protocol lines only: log with console.error.
import { createInterface } from "node:readline";

export const PROTOCOL = 1;

/** Every area lembas-check checks (types.d.ts's Area), listed in hello so each case is sent. */
export const AREAS = ["chunk", "chunk_tokens", "context", "fs_access", "index", "instructions", "jobs",
  "modules", "prefix", "search", "workspace"];

/**
 * @param {import("./index.mjs").Handlers} handlers
 * @param {import("./index.mjs").Options} options
 */
export async function serve(handlers, options) {
  const reply = (/** @type {object} */ obj) => process.stdout.write(JSON.stringify(obj) + "\n");
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
      reply(msg.protocol === PROTOCOL
        ? { protocol: PROTOCOL, implementation: options.implementation, areas: AREAS }
        : { protocol: PROTOCOL, error: `this adapter speaks protocol ${PROTOCOL}` });
    } else if (msg.cmd === "run") {
      reply({ seq: msg.seq, ...(await answer(handlers, msg.area, msg.case)) });
    } else if (msg.cmd === "bye") {
      return;
    } else {
      reply({ seq: msg.seq, error: `unknown cmd ${JSON.stringify(msg.cmd)}` });
    }
  }
}

/** @param {Record<string, ((c: any) => unknown) | undefined>} handlers @param {string} area @param {unknown} c */
async function answer(handlers, area, c) {
  const fn = handlers[area];
  if (!fn) return { skip: `the ${area} area has no handler in this adapter yet` };
  try {
    return { answer: await fn(c) };
  } catch (e) {
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}
