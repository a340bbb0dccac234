// `evidence.attest`: attest one gate run after the fact. Where the feature has a chain, only evidence it
// vouches for is signed (the file and its logs still hash as recorded), so a planted or edited file is
// never laundered into a signed attestation.
import fs from "node:fs";
import { sha256Of } from "../../core/hash.js";
import { AopError } from "../../core/errors.js";
import { validateId } from "../../core/ids.js";
import { sha256FileOrNull } from "../../store/file-hash.js";
import { describeRefusal, readBytesBounded } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { listDirIfPresent } from "../../store/fs-probe.js";
import { readLinesSync } from "../../store/jsonl.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { baseName, parseEvidenceFileName, requireFeatureDir, type ChainEntry, type GateEvidence } from "../evidence/index.js";
import { attestGate, writeBundle, type GateFile } from "./attest-gate.js";
import type { DsseEnvelope } from "./dsse.js";
import type { Signer } from "./ed25519-keys.js";
import { appendAttestationReceipt, type ChainedGate } from "./receipt-file.js";
import type { SigstoreBundle } from "./sigstore-bundle.js";

export interface AttestRequest {
  feature_id: string;
  /** A gate-<mode>-<epoch_ms>.json of the feature, by name or workspace-relative path (default: the newest). */
  gate?: string;
  bundle?: boolean;
}

export interface AttestReport {
  feature_id: string;
  gate_path: string;
  /** The chain entry that vouches for the gate file, or null when the feature has no chain. */
  chain_sequence: number | null;
  attestation_path: string;
  created: boolean;
  keyid: string;
  envelope: DsseEnvelope;
  bundle_path: string | null;
  bundle: SigstoreBundle | null;
}

const MAX_EVIDENCE_BYTES = READ_LIMITS.evidence;

function pickGate(layout: WorkspaceLayout, featureId: string, requested: string | undefined): { mode: string; epochMs: number } {
  const names = listDirIfPresent(layout.evidenceDir(featureId));
  if (requested !== undefined) {
    const name = parseEvidenceFileName(baseName(requested));
    const expectedRel = name?.kind === "gate" ? layout.relative(layout.gateEvidence(featureId, name.mode, name.epochMs)) : null;
    if (name?.kind !== "gate" || (requested.includes("/") && requested !== expectedRel)) {
      throw new AopError("invalid_argument", `gate must name a gate-<mode>-<epoch_ms>.json of feature '${featureId}' (got '${requested.slice(0, 200)}')`, { hint: `list them with \`ls ${layout.relative(layout.evidenceDir(featureId))}\`` });
    }
    if (!names.includes(baseName(requested))) throw new AopError("evidence_not_found", `${expectedRel} does not exist`);
    return name;
  }
  const gates = names.map(parseEvidenceFileName).filter((n) => n?.kind === "gate") as { kind: "gate"; mode: string; epochMs: number }[];
  if (gates.length === 0) throw new AopError("evidence_not_found", `feature '${featureId}' has no gate evidence yet`, { hint: `run a gate first: aop gates run --feature-id ${featureId} --mode <mode>` });
  return gates.reduce((a, b) => (b.epochMs > a.epochMs ? b : a));
}

function readGate(layout: WorkspaceLayout, featureId: string, mode: string, epochMs: number): GateFile {
  const file = layout.gateEvidence(featureId, mode, epochMs);
  const rel = layout.relative(file);
  const read = readBytesBounded(file, MAX_EVIDENCE_BYTES);
  if (read.status !== "ok") throw new AopError("evidence_not_found", `${rel} is not a gate evidence file: it ${describeRefusal(read)}`, { details: { path: rel, refusal: read.status } });
  const bytes = Buffer.from(read.bytes);
  let evidence: GateEvidence;
  try {
    evidence = JSON.parse(bytes.toString("utf8")) as GateEvidence;
  } catch {
    throw new AopError("invalid_argument", `${rel} is not valid JSON`);
  }
  if (evidence?.feature_id !== featureId || !Array.isArray(evidence.step_results) || (evidence.overall !== "pass" && evidence.overall !== "fail")) {
    throw new AopError("invalid_argument", `${rel} is not gate evidence of feature '${featureId}'`);
  }
  return { feature_id: featureId, mode, epochMs, rel_path: rel, bytes, evidence };
}

/** The chain entry of `gate`, after checking the file and its logs still hash as recorded; null without a chain. */
function vouchingEntry(layout: WorkspaceLayout, gate: GateFile): ChainedGate | null {
  const chainFile = layout.chainFile(gate.feature_id);
  if (!fs.existsSync(chainFile)) return null;
  let entry: ChainEntry | null = null;
  let entryLine = "";
  for (const line of readLinesSync(chainFile)) {
    if (!line.complete || !line.text.includes(gate.rel_path)) continue;
    try {
      const parsed = JSON.parse(line.text) as ChainEntry;
      if (parsed.artifact_rel_path === gate.rel_path) {
        entry = parsed;
        entryLine = line.text;
      }
    } catch {
      // An unparseable line is verification's business; it cannot vouch for anything.
    }
  }
  if (entry === null) {
    throw new AopError("evidence_chain_artifact_missing", `${gate.rel_path} is not in the feature's chain, so nothing vouches for it; it was not attested`, { hint: "only chained evidence is attested where a feature has a chain" });
  }
  const actual = sha256Of(gate.bytes);
  if (actual !== entry.artifact_hash) {
    throw new AopError("evidence_chain_hash_mismatch", `${gate.rel_path} was modified after it was chained; it was not attested`, { details: { expected_hash: entry.artifact_hash, actual_hash: actual } });
  }
  for (const step of gate.evidence.step_results) {
    if (step.log_path === null) continue;
    const abs = layout.resolveInside(step.log_path);
    const logHash = abs === null ? null : sha256FileOrNull(abs);
    if (logHash !== step.log_sha256) {
      throw new AopError("evidence_chain_hash_mismatch", `step log ${step.log_path} no longer matches its evidence; ${gate.rel_path} was not attested`, { details: { expected_hash: step.log_sha256, actual_hash: logHash } });
    }
  }
  return { sequence: entry.sequence, line: entryLine };
}

export async function attestOnDemand(layout: WorkspaceLayout, signer: Signer, request: AttestRequest, warn?: (message: string) => void): Promise<AttestReport> {
  const featureId = validateId("feature_id", request.feature_id);
  requireFeatureDir(layout, featureId);
  const { mode, epochMs } = pickGate(layout, featureId, request.gate);
  const gate = readGate(layout, featureId, mode, epochMs);
  const chained = vouchingEntry(layout, gate);
  const written = attestGate(layout, signer, gate);
  const bundle = request.bundle ? writeBundle(layout, gate, written.envelope) : null;
  // A receipt only for files this call signed (a bundle wraps the envelope already there, which may not be).
  if (chained !== null && written.signed !== null) await appendAttestationReceipt(layout, signer, gate, chained, { envelope: written.signed, bundle: bundle?.signed ?? null }, warn);
  return {
    feature_id: featureId,
    gate_path: gate.rel_path,
    chain_sequence: chained?.sequence ?? null,
    attestation_path: written.attestation_path,
    created: written.created,
    keyid: written.envelope.signatures[0]?.keyid ?? signer.keyid,
    envelope: written.envelope,
    bundle_path: bundle?.bundle_path ?? null,
    bundle: bundle?.bundle ?? null,
  };
}
