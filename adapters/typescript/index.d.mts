// @lembas-check/adapter's API; the areas' types are generated (types.d.ts).
import type { Handlers } from "./types.js";
export * from "./types.js";

/** What the adapter says of itself in hello; lembas-check prints it in every report. */
export interface Implementation {
  name: string;
  version: string;
  language?: string;
  harness_spec?: string;
  homepage?: string;
}

export interface Options {
  implementation: Implementation;
  /** Check each answer against its area's schema; default: LEMBAS_ADAPTER_DEBUG=1. */
  debug?: boolean;
}

export declare const PROTOCOL: 1;

/** Thrown by a handler for a case it does not map: answered skip, the message as the reason. */
export declare class Skip extends Error {}
export declare const AREAS: ReadonlyArray<keyof Handlers>;

/** Serve the adapter protocol on stdin/stdout until bye or the end of stdin. */
export declare function serve(handlers: Handlers, options: Options): Promise<void>;
