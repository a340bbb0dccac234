// `evidence.reset_chain`: start a feature's integrity chain over without losing the old one (docs/evidence.md,
// "Repairing a chain"). The old chain, its manifest and anchors, the latest-* copies and every gate file the
// old chain covered (with its attestation and bundle) move into `evidence/reset-<stamp>/`; an empty chain
// takes their place; `evidence/resets.jsonl` records when, why, by whom, and what the old chain said.
import fs from "node:fs";
import path from "node:path";
import type { Clock } from "../../core/clock.js";
import { nowIso } from "../../core/clock.js";
import { AopError } from "../../core/errors.js";
import { validateId } from "../../core/ids.js";
import { fileStamp } from "../../core/instant.js";
import { ensureDir, moveFile, writeFileAtomic } from "../../store/atomic-write.js";
import { siblingOfGateName } from "../../store/gate-file-names.js";
import { readTextOrNull } from "../../store/file-hash.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { withLock } from "../../store/lock.js";
import { GENESIS_HASH } from "./chain-hash.js";
import { writeManifest } from "./chain-manifest.js";
import { evidenceLockPath, readChainEntries } from "./chain-store.js";
import { baseName, parseEvidenceFileName } from "./evidence-names.js";
import { requireFeatureDir, verifyFeatureChain } from "./evidence-verify.js";

/** A reason is for people reading the record later: one line of text, bounded. */
const MAX_RESET_REASON_CHARS = 1_000;

export interface ChainResetRecord {
  feature_id: string;
  reset_at: string;
  reason: string;
  /** Workspace-relative folder holding the old chain and the files it covered. */
  archive: string;
  archived_files: string[];
  /** What the old chain said when it was set aside. */
  previous: { entry_count: number; head_hash: string | null; valid: boolean; failure_code: string | null; first_failure_sequence: number | null };
  run_id: string;
  operation_id: string | null;
}

export interface ChainResetRequest {
  feature_id: string;
  reason: string;
}

function checkedReason(reason: string): string {
  const text = reason.trim();
  if (text === "") throw new AopError("invalid_argument", "reason must say why the chain is started over (got an empty text)", { details: { field: "reason" } });
  if (text.length > MAX_RESET_REASON_CHARS) throw new AopError("invalid_argument", `reason is ${text.length} characters; at most ${MAX_RESET_REASON_CHARS}`, { details: { field: "reason" } });
  return text;
}

/** The names (in the evidence folder) of the files the chain covers: each gate file and its signed siblings. */
function coveredNames(layout: WorkspaceLayout, featureId: string): Set<string> {
  const names = new Set<string>();
  const folder = layout.relative(layout.evidenceDir(featureId)) + "/";
  for (const entry of readChainEntries(layout, featureId)) {
    const rel = entry.artifact_rel_path;
    // Only files of this folder move; a chain entry naming anything else is left where it is.
    if (!rel.startsWith(folder) || rel.slice(folder.length).includes("/")) continue;
    const name = rel.slice(folder.length);
    if (parseEvidenceFileName(name)?.kind !== "gate") continue;
    names.add(name).add(siblingOfGateName(name, "attestation")).add(siblingOfGateName(name, "bundle"));
  }
  return names;
}

/** Everything of the old chain in the evidence folder, by name (regular files and links only, never folders). */
function filesToArchive(layout: WorkspaceLayout, featureId: string): string[] {
  const dir = layout.evidenceDir(featureId);
  const covered = coveredNames(layout, featureId);
  const fixed = new Set([baseName(layout.chainFile(featureId)), baseName(layout.manifestFile(featureId)), baseName(layout.anchorsFile(featureId)), baseName(layout.attestationReceiptsFile(featureId))]);
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => !e.isDirectory() && (fixed.has(e.name) || covered.has(e.name) || parseEvidenceFileName(e.name)?.kind === "latest"))
    .map((e) => e.name)
    .sort();
}

export async function resetChain(layout: WorkspaceLayout, clock: Clock, request: ChainResetRequest, call: { run_id: string; operation_id: string | null }): Promise<ChainResetRecord> {
  const featureId = validateId("feature_id", request.feature_id);
  const reason = checkedReason(request.reason);
  requireFeatureDir(layout, featureId);
  if (!fs.existsSync(layout.chainFile(featureId)) && !fs.existsSync(layout.manifestFile(featureId))) {
    throw new AopError("evidence_chain_missing", `feature ${featureId} has no integrity chain: there is nothing to reset`, { details: { feature_id: featureId }, hint: "a chain starts with the first gate run while evidence integrity is on" });
  }
  // What the old chain says, for the record (verification takes the evidence lock itself, so just before).
  const before = await verifyFeatureChain(layout, clock, featureId, { recordResult: false });
  return withLock(evidenceLockPath(layout, featureId), () => {
    const resetAt = nowIso(clock);
    const stamp = fileStamp(clock.now());
    let archive = layout.chainResetArchive(featureId, stamp);
    for (let n = 1; fs.existsSync(archive); n++) archive = layout.chainResetArchive(featureId, `${stamp}-${n}`);
    ensureDir(archive);
    const moved: string[] = [];
    for (const name of filesToArchive(layout, featureId)) {
      moveFile(path.join(layout.evidenceDir(featureId), name), path.join(archive, name));
      moved.push(layout.relative(path.join(archive, name)));
    }
    // An empty chain that verifies: the next gate run appends entry 0 after the genesis hash.
    writeFileAtomic(layout.chainFile(featureId), "");
    writeManifest(layout, featureId, { entry_count: 0, head_hash: GENESIS_HASH, last_verified_at: null, last_verified_result: null });
    const record: ChainResetRecord = {
      feature_id: featureId,
      reset_at: resetAt,
      reason,
      archive: layout.relative(archive),
      archived_files: moved,
      previous: { entry_count: before.entry_count, head_hash: before.head_hash, valid: before.valid, failure_code: before.failure_code, first_failure_sequence: before.first_failure_sequence },
      run_id: call.run_id,
      operation_id: call.operation_id,
    };
    // Rewritten whole rather than appended: resets are rare, and a reset killed mid-write leaves no torn line.
    const records = readTextOrNull(layout.chainResetsFile(featureId)) ?? "";
    writeFileAtomic(layout.chainResetsFile(featureId), `${records}${records === "" || records.endsWith("\n") ? "" : "\n"}${JSON.stringify(record)}\n`);
    return record;
  });
}
