// The worker thread of artifact-prefetch.ts: checks chain entries in full from the chain's end
// downwards until it meets the walk, and sends the verdicts back in batches.
import { workerData } from "node:worker_threads";
import { WorkspaceLayout } from "../../store/layout.js";
import { linesOfBytes } from "../../store/jsonl.js";
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
    const lines: string[] = [];
    for (const line of linesOfBytes(input.chain)) {
      if (!line.complete) break;
      lines.push(line.text);
    }
    let batch: WireVerdict[] = [];
    for (let sequence = Math.min(lines.length, claims.length) - 1; sequence >= 0; sequence--) {
      if (Atomics.compareExchange(claims, sequence, CLAIM.free, CLAIM.worker) !== CLAIM.free) break;
      const prev = sequence === 0 ? GENESIS_HASH : claimedHash(lines[sequence - 1]!);
      const checked = checkChainEntry(input, files, lines[sequence]!, sequence, prev);
      if (isFailure(checked)) batch.push({ sequence, prev, failure: checked });
      else {
        const verdict: WireVerdict = { sequence, prev, logs: checked.logs, mode: checked.mode, epochMs: checked.epochMs };
        if (present !== null) verdict.siblings = [...hashGateSiblings(layout, input.feature_id, checked.mode, checked.epochMs, present, memo)];
        batch.push(verdict);
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
