// What a gate run adds when policy asks for signatures: the attestation of its evidence and, once the
// evidence is chained, a fresh anchor (observability.evidence_integrity.attest / anchor_after_gate).
// The signing key is resolved before any step runs, so a missing key fails the run before it starts.
import type { Clock } from "../../core/clock.js";
import type { Policy } from "../../config/policy-types.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { chainLine, type ChainEntry, type WrittenEvidence } from "../evidence/index.js";
import { anchorFeature } from "./anchor-service.js";
import { attestGate, type GateFile, type WrittenAttestation } from "./attest-gate.js";
import type { Signer } from "./ed25519-keys.js";
import { processKeyEnvironment } from "./key-environment.js";
import { readCommittedKeys } from "./public-keys.js";
import { appendAttestationReceipt } from "./receipt-file.js";
import { workspaceSigner } from "./workspace-signer.js";

export interface GateSeal {
  attestation: { path: string; keyid: string } | null;
  anchor: { path: string; tree_size: number; root: string; git_commit: string | null } | null;
}

/** The key to seal gate runs with, or null when policy asks for neither attestations nor anchors. */
export function gateSigner(layout: WorkspaceLayout, policy: Policy): Signer | null {
  const integrity = policy.observability.evidence_integrity;
  if (!integrity.attest && !integrity.anchor_after_gate) return null;
  return workspaceSigner(layout, processKeyEnvironment());
}

/**
 * A gate run's attestation and, when the chain holds the run (`chain`: its entry), the receipt that lets
 * the next anchor take it as checked (docs/evidence.md, "Attestation receipts").
 */
export async function attestGateRun(layout: WorkspaceLayout, signer: Signer, gate: GateFile, chain: ChainEntry | null, options: { durable?: boolean; warn?: (message: string) => void } = {}): Promise<WrittenAttestation> {
  const made = attestGate(layout, signer, gate, { durable: options.durable });
  if (chain !== null) await appendAttestationReceipt(layout, signer, gate, { sequence: chain.sequence, line: chainLine(chain) }, { envelope: made.signed, bundle: null }, options.warn);
  return made;
}

export async function sealGateRun(layout: WorkspaceLayout, clock: Clock, policy: Policy, signer: Signer | null, written: WrittenEvidence, chain: ChainEntry | null, warn?: (message: string) => void): Promise<GateSeal> {
  const integrity = policy.observability.evidence_integrity;
  const seal: GateSeal = { attestation: null, anchor: null };
  if (signer === null) return seal;
  if (integrity.attest) {
    const { feature_id, mode } = written.evidence;
    const gate = { feature_id, mode, epochMs: written.epochMs, rel_path: written.rel_path, bytes: written.bytes, evidence: written.evidence };
    const made = await attestGateRun(layout, signer, gate, chain, warn ? { warn } : {});
    seal.attestation = { path: made.attestation_path, keyid: signer.keyid };
  }
  if (integrity.anchor_after_gate && chain !== null) {
    const anchor = await anchorFeature(layout, clock, signer, readCommittedKeys(layout).keys.values(), written.evidence.feature_id, { git: integrity.anchor_git, ...(warn ? { warn } : {}) });
    seal.anchor = { path: anchor.anchors_path, tree_size: anchor.tree_size, root: anchor.root, git_commit: anchor.git?.commit ?? null };
  }
  return seal;
}
