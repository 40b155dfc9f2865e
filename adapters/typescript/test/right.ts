// A handler of the right type: tsc passes (the kit's own type test, run by adapters/kitgen).
import { serve, type Handlers } from "../index.mjs";

const handlers: Handlers = {
  jobs: (c) => ({ text: `${c.kind} ${c.id ?? ""}` }),
  fs_access: async (c) => (c.op === "read" ? { ok: true } : { error: "denied" }),
};
void serve(handlers, { implementation: { name: "right", version: "0" } });
