// A handler of the wrong type: tsc must fail here (a number where the jobs answer has a string).
import { serve, type Handlers } from "../index.mjs";

const handlers: Handlers = {
  jobs: (c) => ({ text: c.seconds ?? 0 }),
};
void serve(handlers, { implementation: { name: "wrong", version: "0" } });
