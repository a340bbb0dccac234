// What the walk and its worker thread share (artifact-prefetch.ts, artifact-worker.ts): the input, the
// flags and the verdicts as they cross between threads.
import type { MessagePort } from "node:worker_threads";
import type { ChainContext } from "./chain-entry-check.js";
import type { Failure, Refused } from "./chain-failure.js";
import type { LogRef } from "./step-log-refs.js";

export interface WorkerInput extends ChainContext {
  root: string;
  /** The chain's bytes as the walk's snapshot holds them: both threads split the same lines. */
  chain: Uint8Array;
  /** The listing's attestation and bundle names, when their digests are wanted; null otherwise. */
  siblingNames: string[] | null;
  /** Int32 [state, signal]: the worker's state, and a counter bumped after each batch. */
  ctl: SharedArrayBuffer;
  /** Int32 per entry: who checks it. */
  claims: SharedArrayBuffer;
  port: MessagePort;
}

export const CLAIM = { free: 0, walk: 1, worker: 2 } as const;
export const STATE = { index: 0, signal: 1, starting: 0, running: 1, done: 2, failed: 3 } as const;

export interface WireVerdict {
  sequence: number;
  /** The chain_hash the worker linked the entry to (that of the line before). */
  prev: string;
  failure?: Failure;
  logs?: LogRef[];
  mode?: string;
  epochMs?: number;
  siblings?: [string, string | null | Refused][];
}
