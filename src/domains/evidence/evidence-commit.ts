// Publishing a written evidence file: chain it (only when both integrity toggles are on), refresh
// latest-<mode>.json and record the feature state, all under the feature's evidence lock so that
// concurrent runs publish in one order and latest-* always copies the newest chained file.
import type { Clock } from "../../core/clock.js";
import { nowIso } from "../../core/clock.js";
import { evidenceIntegrityEnabled, type Policy } from "../../config/policy-types.js";
import { recordGateResult } from "../features/index.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { withLock } from "../../store/lock.js";
import type { ChainEntry } from "./chain-hash.js";
import { appendChainEntryLocked, evidenceLockPath, type AppendOptions } from "./chain-store.js";
import { updateLatestLocked, type WrittenEvidence } from "./evidence-files.js";

export interface CommitResult {
  chain: ChainEntry | null;
  /** Whether latest-<mode>.json (and the feature state) now point at this evidence. */
  is_latest: boolean;
}

export interface CommitOptions extends AppendOptions {
  /** Record `gates.<mode>` in the feature's state.md (default true). */
  recordState?: boolean;
}

export async function commitGateEvidence(layout: WorkspaceLayout, clock: Clock, policy: Policy, written: WrittenEvidence, options: CommitOptions = {}): Promise<CommitResult> {
  const { feature_id: featureId, mode, overall, finished_at } = written.evidence;
  return withLock(evidenceLockPath(layout, featureId), async () => {
    const chain = evidenceIntegrityEnabled(policy) ? appendChainEntryLocked(layout, featureId, written.path, nowIso(clock), options) : null;
    const isLatest = updateLatestLocked(layout, written, options);
    if (isLatest && options.recordState !== false) {
      await recordGateResult(layout, clock, featureId, mode, { result: overall, evidence: written.rel_path, at: finished_at });
    }
    return { chain, is_latest: isLatest };
  });
}
