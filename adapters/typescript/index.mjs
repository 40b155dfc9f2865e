// @lembas-check/adapter: the adapter protocol's loop (docs/protocol.md in lembas-check) around
// one typed handler per area (types.d.ts, generated from the areas' schemas). An area without a
// handler is answered skip, with the reason; a handler that throws is answered error, and the
// loop goes on. In debug mode (options.debug, or LEMBAS_ADAPTER_DEBUG=1) each answer is checked
// against its area's schema first. Stdout carries protocol lines only: log with console.error.
import { createInterface } from "node:readline";
import { checkAnswer } from "./validate.mjs";

export const PROTOCOL = 1;

/** Thrown by a handler for a case it does not map (an op it has no form for): answered skip,
 * with the message as the reason, so the run says what is not checked rather than failing it. */
export class Skip extends Error {}

/** Every area lembas-check checks (types.d.ts's Area), listed in hello so each case is sent. */
export const AREAS = ["chunk", "chunk_tokens", "context", "fs_access", "index", "instructions", "jobs", "loop",
  "modules", "prefix", "prompts", "search", "skills", "tools", "workspace"];

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
      const debug = options.debug ?? process.env.LEMBAS_ADAPTER_DEBUG === "1";
      reply({ seq: msg.seq, ...(await answer(handlers, msg.area, msg.case, debug)) });
    } else if (msg.cmd === "bye") {
      return;
    } else {
      reply({ seq: msg.seq, error: `unknown cmd ${JSON.stringify(msg.cmd)}` });
    }
  }
}

/**
 * The handler's answer; in debug mode one that does not fit its area's schema is answered error,
 * naming the field, and said on stderr.
 * @param {Record<string, ((c: any) => unknown) | undefined>} handlers @param {string} area
 * @param {unknown} c @param {boolean} debug
 */
async function answer(handlers, area, c, debug) {
  const fn = handlers[area];
  if (!fn) return { skip: `the ${area} area has no handler in this adapter yet` };
  try {
    const a = await fn(c);
    const bad = debug ? checkAnswer(area, a) : "";
    if (bad) {
      console.error(`lembas adapter (debug): the ${area} handler's ${bad}`);
      return { error: `the ${area} handler's answer does not fit its schema: ${bad}` };
    }
    return { answer: a };
  } catch (e) {
    if (e instanceof Skip) return { skip: e.message };
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}
