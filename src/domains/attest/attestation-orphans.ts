// Attestations of gate files the chain does not cover (written while integrity was off): checked against
// the files as they are, since no chain entry vouches for them.
import { readTextOrNull, sha256FileOrNull } from "../../store/file-hash.js";
import { gateEvidenceName, isSignedEvidenceName } from "../../store/gate-file-names.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { parseEvidenceFileName, type GateEvidence } from "../evidence/index.js";
import type { AttestationCollector } from "./attestation-collector.js";

const ATTESTATION_FILE = /^(gate-.+-\d{1,16})\.(intoto\.jsonl|sigstore\.json)$/;

function expectedDigests(layout: WorkspaceLayout, gatePath: string): Map<string, string> {
  const expected = new Map<string, string>();
  const abs = layout.resolveInside(gatePath);
  const gateHash = abs === null ? null : sha256FileOrNull(abs);
  if (gateHash === null) return expected;
  expected.set(gatePath, gateHash);
  let evidence: Partial<GateEvidence> | null;
  try {
    evidence = JSON.parse(readTextOrNull(abs!) ?? "null") as Partial<GateEvidence> | null;
  } catch {
    return expected;
  }
  for (const step of Array.isArray(evidence?.step_results) ? evidence.step_results : []) {
    const logAbs = typeof step?.log_path === "string" ? layout.resolveInside(step.log_path) : null;
    const logHash = logAbs === null ? null : sha256FileOrNull(logAbs);
    if (logHash !== null) expected.set(step.log_path!, logHash);
  }
  return expected;
}

export function addUnchainedAttestations(layout: WorkspaceLayout, featureId: string, collector: AttestationCollector): void {
  const seen = new Set<string>();
  // Built once: the folder holds a few files per gate run, and most are not attestations.
  const folder = layout.relative(layout.evidenceDir(featureId));
  for (const name of collector.present) {
    if (!isSignedEvidenceName(name) || collector.accounted.has(name)) continue;
    const gate = parseEvidenceFileName(`${ATTESTATION_FILE.exec(name)?.[1]}.json`);
    if (gate?.kind !== "gate") continue;
    const gatePath = `${folder}/${gateEvidenceName(gate.mode, gate.epochMs)}`;
    if (collector.gates.has(gatePath) || seen.has(gatePath)) continue;
    seen.add(gatePath);
    collector.add({ sequence: null, featureId, gatePath, mode: gate.mode, epochMs: gate.epochMs, expected: expectedDigests(layout, gatePath) });
  }
}
