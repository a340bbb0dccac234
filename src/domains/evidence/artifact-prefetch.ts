// Checking a long chain on the second core (docs/performance.md, "aop evidence verify"). A worker thread
// (artifact-worker.ts) claims entries from the chain's end downwards, the walk claims them from the start
// upwards, one shared flag per entry deciding who has it. Both split the same bytes into lines and check
// an entry with the same code (chain-entry-check.ts); the worker's verdicts come back in batches and the
// walk settles them in order (chain-verify.ts), so the report is the one a single thread gives.
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { ArtifactPrefetch, PrefetchedVerdict } from "./chain-verify.js";
import { completeLineCount } from "../../store/jsonl.js";
import { CLAIM, STATE, type WireVerdict, type WorkerInput } from "./artifact-wire.js";

/** Below this many chain bytes (~2,700 entries) a worker costs more to start than it saves. */
export const PREFETCH_MIN_CHAIN_BYTES = 1024 * 1024;
/** How long the walk waits for a worker that shows no progress before it checks the entries itself. */
const STALL_MS = 30_000;
const WAIT_MS = 250;

/**
 * The worker's script in the build: found from the package's dist/ folder, since a route's bundle that
 * holds this module sits at another depth under it (and the sources run in tests have no worker file).
 */
function workerScript(): string {
  const here = fileURLToPath(import.meta.url);
  const dist = here.lastIndexOf(`${path.sep}dist${path.sep}`);
  const root = dist === -1 ? path.resolve(path.dirname(here), "..", "..", "..") : here.slice(0, dist);
  return path.join(root, "dist", "domains", "evidence", "artifact-worker.js");
}

/**
 * Whether a chain of this size is worth a worker here: a long chain, and a core to spare — two or more,
 * and a load average that leaves one free (on a machine whose cores are all busy, a second thread only
 * competes with the first: docs/performance.md). AOP_VERIFY_THREADS=1 turns it off, =2 on for every
 * long chain whatever the load.
 */
export function prefetchWorthIt(chainBytes: number): boolean {
  const threads = process.env.AOP_VERIFY_THREADS;
  if (threads === "1" || chainBytes < PREFETCH_MIN_CHAIN_BYTES) return false;
  if (threads === "2") return true;
  const cores = os.availableParallelism();
  return cores > 1 && os.loadavg()[0]! < cores - 0.5;
}

export type PrefetchStart = Omit<WorkerInput, "ctl" | "claims" | "port">;

/** A worker checking the chain's entries from its end, or null when none could be started (the walk then checks every entry). */
export function startPrefetch(start: PrefetchStart): WorkerPrefetch | null {
  try {
    return new WorkerPrefetch(start);
  } catch {
    return null;
  }
}

export class WorkerPrefetch implements ArtifactPrefetch {
  private readonly ctl: Int32Array;
  private readonly claims: Int32Array;
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private readonly received = new Map<number, WireVerdict>();
  /** Entries the worker checked whose verdicts the walk took. */
  taken = 0;

  constructor(start: PrefetchStart) {
    this.ctl = new Int32Array(new SharedArrayBuffer(8));
    this.claims = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, completeLineCount(start.chain))));
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const input: WorkerInput = { ...start, ctl: this.ctl.buffer as SharedArrayBuffer, claims: this.claims.buffer as SharedArrayBuffer, port: port2 };
    this.worker = new Worker(workerScript(), { workerData: input, transferList: [port2], stdout: true, stderr: true });
    this.worker.unref();
    // A worker that fails to start is no verdict: the walk checks every entry itself.
    this.worker.on("error", () => Atomics.store(this.ctl, STATE.index, STATE.failed));
  }

  claim(sequence: number): boolean {
    return sequence >= this.claims.length || Atomics.compareExchange(this.claims, sequence, CLAIM.free, CLAIM.walk) === CLAIM.free;
  }

  take(sequence: number, prev: string): PrefetchedVerdict | null {
    let waited = 0;
    for (;;) {
      const verdict = this.received.get(sequence);
      if (verdict !== undefined) {
        this.received.delete(sequence);
        // No verdict, or one linked to another entry than the walk verified: the walk checks it.
        if (verdict.prev !== prev || (verdict.failure === undefined && verdict.logs === undefined)) return null;
        this.taken++;
        if (verdict.failure) return { failure: verdict.failure };
        return { logs: verdict.logs!, mode: verdict.mode!, epochMs: verdict.epochMs!, ...(verdict.siblings ? { siblings: new Map(verdict.siblings) } : {}) };
      }
      const signal = Atomics.load(this.ctl, STATE.signal);
      if (this.drain()) continue;
      const state = Atomics.load(this.ctl, STATE.index);
      if (state === STATE.done || state === STATE.failed) return this.drain() ? this.take(sequence, prev) : null;
      if (Atomics.wait(this.ctl, STATE.signal, signal, WAIT_MS) === "timed-out" && (waited += WAIT_MS) >= STALL_MS) return null;
    }
  }

  /** Resolves once the worker has stopped claiming entries (done, or failed). */
  async whenDone(): Promise<void> {
    for (;;) {
      const state = Atomics.load(this.ctl, STATE.index);
      if (state === STATE.done || state === STATE.failed) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  private drain(): boolean {
    let got = false;
    for (let message = receiveMessageOnPort(this.port); message !== undefined; message = receiveMessageOnPort(this.port)) {
      for (const verdict of message.message as WireVerdict[]) this.received.set(verdict.sequence, verdict);
      got = true;
    }
    return got;
  }

  close(): void {
    this.port.close();
    void this.worker.terminate();
  }
}
