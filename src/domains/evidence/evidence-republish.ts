// Finishing the publication of gate evidence whose run was killed after the file was written (docs/evidence.md,
// "Interrupted runs"): chain it unless the chain holds it already, count it in the manifest, refresh
// latest-<mode>.json, record the feature state — each step skipped when the killed run had done it.
import type { Clock } from "../../core/clock.js";
import { nowIso } from "../../core/clock.js";
import { evidenceIntegrityEnabled, type Policy } from "../../config/policy-types.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readBytesBounded } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { withLock } from "../../store/lock.js";
import { readState, recordGateResult } from "../features/index.js";
import { appendChainEntryLocked, evidenceLockPath, findChainEntry, settleManifestLocked, type AppendOptions } from "./chain-store.js";
import type { CommitResult } from "./evidence-commit.js";
import { updateLatestLocked, type WrittenEvidence } from "./evidence-files.js";
import { baseName, parseEvidenceFileName } from "./evidence-names.js";
import type { GateEvidence } from "./evidence-types.js";

/** A gate evidence file read back as written (null when it is not one, or unreadable). */
export function readWrittenEvidence(layout: WorkspaceLayout, relPath: string): WrittenEvidence | null {
  const name = parseEvidenceFileName(baseName(relPath));
  const file = layout.resolveInside(relPath);
  if (name?.kind !== "gate" || file === null) return null;
  const read = readBytesBounded(file, READ_LIMITS.evidence);
  if (read.status !== "ok") return null;
  const bytes = Buffer.from(read.bytes);
  let evidence: GateEvidence;
  try {
    evidence = JSON.parse(bytes.toString("utf8")) as GateEvidence;
  } catch {
    return null;
  }
  if (typeof evidence?.feature_id !== "string" || evidence.mode !== name.mode || !Array.isArray(evidence.step_results)) return null;
  return { path: file, rel_path: layout.relative(file), epochMs: name.epochMs, bytes, evidence };
}

export async function republishGateEvidence(layout: WorkspaceLayout, clock: Clock, policy: Policy, written: WrittenEvidence, options: AppendOptions = {}): Promise<CommitResult> {
  const { feature_id: featureId, mode, overall, finished_at } = written.evidence;
  return withLock(evidenceLockPath(layout, featureId), async () => {
    let chain = null;
    if (evidenceIntegrityEnabled(policy)) {
      chain = findChainEntry(layout, featureId, written.rel_path);
      if (chain) settleManifestLocked(layout, featureId, options);
      else chain = appendChainEntryLocked(layout, featureId, written.path, nowIso(clock), options);
    }
    const isLatest = updateLatestLocked(layout, written, options);
    const recorded = (await readState(layout, featureId))?.state.gates[mode]?.evidence === written.rel_path;
    if (isLatest && !recorded) await recordGateResult(layout, clock, featureId, mode, { result: overall, evidence: written.rel_path, at: finished_at });
    return { chain, is_latest: isLatest };
  });
}
