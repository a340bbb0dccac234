// Writing a gate run's attestation beside its evidence: the in-toto statement, DSSE-signed, as
// `gate-<mode>-<epoch_ms>.intoto.jsonl` (one envelope on one line), and on request a Sigstore bundle.
// Both files are created once and never replaced, like the evidence they attest.
import { sha256Of } from "../../core/hash.js";
import { AopError } from "../../core/errors.js";
import { createFileAtomic } from "../../store/atomic-write.js";
import { sha256FileOrNull } from "../../store/file-hash.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readTextBounded } from "../../store/read-text-bounded.js";
import type { GateEvidence } from "../evidence/index.js";
import { IN_TOTO_PAYLOAD_TYPE, parseEnvelope, signEnvelope, type DsseEnvelope } from "./dsse.js";
import type { Signer } from "./ed25519-keys.js";
import { descriptor, gateStatement, type ResourceDescriptor } from "./in-toto-statement.js";
import { sigstoreBundle, type SigstoreBundle } from "./sigstore-bundle.js";

/** A gate evidence file as written: where it is, its exact bytes and what they say. */
export interface GateFile {
  feature_id: string;
  mode: string;
  epochMs: number;
  rel_path: string;
  bytes: Buffer;
  evidence: GateEvidence;
}

export interface WrittenAttestation {
  attestation_path: string;
  created: boolean;
  envelope: DsseEnvelope;
}

const MAX_ATTESTATION_BYTES = 1024 * 1024;

/** The configuration the gate ran under: gates.yaml and policy.yaml as they are now (when present). */
export function configurationOf(layout: WorkspaceLayout): ResourceDescriptor[] {
  const out: ResourceDescriptor[] = [];
  for (const file of [layout.gatesFile, layout.policyFile]) {
    const digest = sha256FileOrNull(file);
    if (digest !== null) out.push(descriptor(layout.relative(file), digest));
  }
  return out;
}

function readExisting(file: string, rel: string): DsseEnvelope {
  const read = readTextBounded(file, MAX_ATTESTATION_BYTES);
  let envelope: DsseEnvelope | string = "it cannot be read";
  if (read.status === "ok" && !read.truncated) {
    try {
      envelope = parseEnvelope(JSON.parse(read.text));
    } catch {
      envelope = "it is not JSON";
    }
  }
  if (typeof envelope === "string") {
    throw new AopError("evidence_attestation_malformed", `${rel} already exists and ${envelope}; it was left as it is`, { details: { attestation_path: rel }, hint: "run `aop evidence verify` to see what is wrong with it" });
  }
  return envelope;
}

export function attestGate(layout: WorkspaceLayout, signer: Signer, gate: GateFile, options: { durable?: boolean } = {}): WrittenAttestation {
  const file = layout.gateAttestation(gate.feature_id, gate.mode, gate.epochMs);
  const rel = layout.relative(file);
  const statement = gateStatement(gate.rel_path, sha256Of(gate.bytes), gate.evidence, configurationOf(layout));
  const envelope = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement), "utf8"), signer);
  if (createFileAtomic(file, JSON.stringify(envelope) + "\n", options)) return { attestation_path: rel, created: true, envelope };
  return { attestation_path: rel, created: false, envelope: readExisting(file, rel) };
}

/** The attestation as a Sigstore bundle v0.3, written beside it unless one is there already. */
export function writeBundle(layout: WorkspaceLayout, gate: GateFile, envelope: DsseEnvelope): { bundle_path: string; created: boolean; bundle: SigstoreBundle } {
  const file = layout.gateBundle(gate.feature_id, gate.mode, gate.epochMs);
  const bundle = sigstoreBundle(envelope);
  const created = createFileAtomic(file, JSON.stringify(bundle, null, 2) + "\n");
  return { bundle_path: layout.relative(file), created, bundle };
}
