// Checks the attestations of chained gate runs while the chain is walked: the shape and subjects at once,
// the signatures on the thread pool, so they overlap with the walk instead of following it.
import { readTextOrNull } from "../../store/file-hash.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { baseName, parseEvidenceFileName, type ChainEntry, type LogRef } from "../evidence/index.js";
import { checkAttestationShape, type AttestationFailureCode } from "./attestation-check.js";
import { checkEnvelopeSignature } from "./dsse.js";
import type { TrustedKey } from "./ed25519-keys.js";

export interface AttestationFailure {
  sequence: number | null;
  path: string;
  code: AttestationFailureCode;
  reason: string;
}

export interface AttestationSummary {
  /** Attestation files examined (envelopes and Sigstore bundles). */
  checked: number;
  valid: number;
  failed: number;
  /** Chained gate runs with neither an attestation nor a bundle. */
  unattested: number;
  /** The failures, in sequence order (at most MAX_LISTED). */
  failures: AttestationFailure[];
}

export const MAX_LISTED = 20;

export interface AttestationTarget {
  sequence: number | null;
  gatePath: string;
  /** Absolute paths of the gate's envelope and bundle files. */
  envelopeFile: string;
  bundleFile: string;
  /** Each file the gate vouches for → its digest as verified today. */
  expected: ReadonlyMap<string, string>;
}

export class AttestationCollector {
  private readonly pending: Promise<AttestationFailure | null>[] = [];
  private checked = 0;
  private unattested = 0;
  readonly gates = new Set<string>();

  constructor(
    private readonly layout: WorkspaceLayout,
    private readonly keys: ReadonlyMap<string, TrustedKey>,
  ) {}

  /** The target of a chained entry whose artifact and logs verified. */
  targetOf(featureId: string, entry: ChainEntry, logs: readonly LogRef[]): AttestationTarget | null {
    const name = parseEvidenceFileName(baseName(entry.artifact_rel_path));
    if (name?.kind !== "gate") return null;
    const expected = new Map<string, string>([[entry.artifact_rel_path, entry.artifact_hash]]);
    for (const log of logs) if (typeof log.log_sha256 === "string") expected.set(log.log_path, log.log_sha256);
    return {
      sequence: entry.sequence,
      gatePath: entry.artifact_rel_path,
      envelopeFile: this.layout.gateAttestation(featureId, name.mode, name.epochMs),
      bundleFile: this.layout.gateBundle(featureId, name.mode, name.epochMs),
      expected,
    };
  }

  add(target: AttestationTarget): void {
    this.gates.add(target.gatePath);
    let found = false;
    for (const [file, kind] of [[target.envelopeFile, "envelope"], [target.bundleFile, "bundle"]] as const) {
      const text = readTextOrNull(file);
      if (text === null) continue;
      found = true;
      this.checked++;
      const path = this.layout.relative(file);
      const shape = checkAttestationShape(text, kind, target.gatePath, target.expected);
      if (!shape.ok) {
        this.pending.push(Promise.resolve({ sequence: target.sequence, path, code: shape.code, reason: shape.reason }));
        continue;
      }
      this.pending.push(
        checkEnvelopeSignature(shape.envelope, this.keys).then((check): AttestationFailure | null => {
          if (check.status === "valid") return null;
          if (check.status === "unknown_key") return { sequence: target.sequence, path, code: "evidence_signing_key_unknown", reason: `it is signed by key ${check.keyid.slice(0, 12) || "(unnamed)"}…, which is not among the committed public keys` };
          return { sequence: target.sequence, path, code: "evidence_signature_invalid", reason: `its signature by key ${check.keyid.slice(0, 12)}… does not verify: it was changed after it was signed` };
        }),
      );
    }
    if (!found && target.sequence !== null) this.unattested++;
  }

  async summary(): Promise<AttestationSummary> {
    const failures = (await Promise.all(this.pending)).filter((f): f is AttestationFailure => f !== null);
    failures.sort((a, b) => (a.sequence ?? Infinity) - (b.sequence ?? Infinity) || (a.path < b.path ? -1 : 1));
    return { checked: this.checked, valid: this.checked - failures.length, failed: failures.length, unattested: this.unattested, failures: failures.slice(0, MAX_LISTED) };
  }
}
