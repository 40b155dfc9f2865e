#!/usr/bin/env node
// The example adapter: the kit's loop with the example's handlers. In your project:
//   import { serve } from "@lembas-check/adapter";
// and `lembas-check run --impl 'node test/lembas-adapter.mjs'`.
import { serve } from "../index.mjs";
import { fs_access } from "./fs_access.mjs";
import { jobs } from "./jobs.mjs";

await serve({ fs_access, jobs }, {
  implementation: {
    name: "example TypeScript adapter",
    version: "0.1.0",
    language: "typescript",
    harness_spec: "3.1.0",
    homepage: "https://github.com/LLeMbas/lembas-check/tree/main/adapters/typescript",
  },
});
