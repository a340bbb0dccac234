// The worker thread of artifact-prefetch.ts: checks chain entries in full from the chain's end
// downwards until it meets the walk, and sends the verdicts back in batches.
import { workerData } from "node:worker_threads";
import { WorkspaceLayout } from "../../store/layout.js";
import { completeLinesFromTheEnd } from "../../store/jsonl.js";
import { CLAIM, STATE, type WireVerdict, type WorkerInput } from "./artifact-wire.js";
import { checkChainEntry, isFailure } from "./chain-entry-check.js";
import { GENESIS_HASH } from "./chain-hash.js";
import { workspaceReader } from "./evidence-reader.js";
import { hashGateSiblings } from "./gate-siblings.js";

const BATCH = 64;

/** The chain_hash a line claims (what the next entry must link to), or "" when it claims none. */
function claimedHash(text: string): string {
  try {
    const hash = (JSON.parse(text) as { chain_hash?: unknown } | null)?.chain_hash;
    return typeof hash === "string" ? hash : "";
  } catch {
    return "";
  }
}

function run(input: WorkerInput): void {
  const ctl = new Int32Array(input.ctl);
  const claims = new Int32Array(input.claims);
  const signal = () => {
    Atomics.add(ctl, STATE.signal, 1);
    Atomics.notify(ctl, STATE.signal);
  };
  try {
    Atomics.store(ctl, STATE.index, STATE.running);
    const layout = new WorkspaceLayout(input.root);
    const memo = new Set<string>();
    const files = workspaceReader(layout, memo);
    const present = input.siblingNames === null ? null : new Set(input.siblingNames);
    const lines = completeLinesFromTheEnd(input.chain, claims.length);
    let batch: WireVerdict[] = [];
    // Each line is read once: as the entry before the one checked, then as the one checked.
    let next = lines.next();
    while (!next.done) {
      const [sequence, text] = next.value;
      if (Atomics.compareExchange(claims, sequence, CLAIM.free, CLAIM.worker) !== CLAIM.free) break;
      next = lines.next();
      const before = next.done ? null : next.value[1];
      const prev = sequence === 0 ? GENESIS_HASH : before === null ? "" : claimedHash(before);
      if (text === null) batch.push({ sequence, prev: "" }); // no verdict: the walk checks it
      else {
        const checked = checkChainEntry(input, files, text, sequence, prev);
        if (isFailure(checked)) batch.push({ sequence, prev, failure: checked });
        else {
          const verdict: WireVerdict = { sequence, prev, logs: checked.logs, mode: checked.mode, epochMs: checked.epochMs };
          if (present !== null) verdict.siblings = [...hashGateSiblings(layout, input.feature_id, checked.mode, checked.epochMs, present, memo)];
          batch.push(verdict);
        }
      }
      if (batch.length === BATCH) {
        input.port.postMessage(batch);
        batch = [];
        signal();
      }
    }
    if (batch.length > 0) input.port.postMessage(batch);
    Atomics.store(ctl, STATE.index, STATE.done);
  } catch {
    Atomics.store(ctl, STATE.index, STATE.failed);
  }
  signal();
  input.port.close();
}

run(workerData as WorkerInput);
