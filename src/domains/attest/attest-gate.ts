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
  /** The file's bytes when they are exactly what this call signed (Ed25519 is deterministic), else null. */
  signed: Buffer | null;
}

const MAX_ATTESTATION_BYTES = 1024 * 1024;

/** The configuration the gate ran under: gates.yaml, policy.yaml and aop.yaml as they are now (when present). */
function configurationOf(layout: WorkspaceLayout): ResourceDescriptor[] {
  const out: ResourceDescriptor[] = [];
  for (const file of [layout.gatesFile, layout.policyFile, layout.aopConfigFile]) {
    const digest = sha256FileOrNull(file);
    if (digest !== null) out.push(descriptor(layout.relative(file), digest));
  }
  return out;
}

function readExisting(file: string, rel: string, fresh: string): { envelope: DsseEnvelope; same: boolean } {
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
  return { envelope, same: read.status === "ok" && read.text === fresh };
}

export function attestGate(layout: WorkspaceLayout, signer: Signer, gate: GateFile, options: { durable?: boolean } = {}): WrittenAttestation {
  const file = layout.gateAttestation(gate.feature_id, gate.mode, gate.epochMs);
  const rel = layout.relative(file);
  const statement = gateStatement(gate.rel_path, sha256Of(gate.bytes), gate.evidence, configurationOf(layout));
  const envelope = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement), "utf8"), signer);
  const text = JSON.stringify(envelope) + "\n";
  if (createFileAtomic(file, text, options)) return { attestation_path: rel, created: true, envelope, signed: Buffer.from(text, "utf8") };
  const existing = readExisting(file, rel, text);
  return { attestation_path: rel, created: false, envelope: existing.envelope, signed: existing.same ? Buffer.from(text, "utf8") : null };
}

/** The attestation as a Sigstore bundle v0.3, written beside it unless one is there already. */
export function writeBundle(layout: WorkspaceLayout, gate: GateFile, envelope: DsseEnvelope): { bundle_path: string; created: boolean; bundle: SigstoreBundle; signed: Buffer | null } {
  const file = layout.gateBundle(gate.feature_id, gate.mode, gate.epochMs);
  const bundle = sigstoreBundle(envelope);
  const text = JSON.stringify(bundle, null, 2) + "\n";
  const created = createFileAtomic(file, text);
  const existing = created ? null : readTextBounded(file, MAX_ATTESTATION_BYTES);
  const same = created || (existing?.status === "ok" && existing.text === text);
  return { bundle_path: layout.relative(file), created, bundle, signed: same ? Buffer.from(text, "utf8") : null };
}
