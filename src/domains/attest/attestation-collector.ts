// Checks the attestations of chained gate runs while the chain is walked: the shape and subjects at once,
// the signatures on the thread pool, so they overlap with the walk instead of following it.
import { readFileShared } from "../../store/file-hash.js";
import { gateSiblingName, isSignedEvidenceName } from "../../store/gate-file-names.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { baseName, parseEvidenceFileName, type ChainEntry, type LogRef } from "../evidence/index.js";
import { checkAttestationShape, expectedSubjects, type AttestationFailureCode } from "./attestation-check.js";
import { checkEnvelopeSignature } from "./dsse.js";
import type { AttestationDigests } from "./attestation-digests.js";
import type { TrustedKey } from "./ed25519-keys.js";
import { isCanonicalGate, VouchedAttestations } from "./vouched-attestations.js";
import { compareText } from "../../core/compare-text.js";

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

const MAX_LISTED = 20;

export interface AttestationTarget {
  sequence: number | null;
  featureId: string;
  /** The gate file (workspace-relative), its mode and epoch. */
  gatePath: string;
  mode: string;
  epochMs: number;
  /** Each file the gate vouches for → its digest as verified today. */
  expected: ReadonlyMap<string, string>;
}

function holdsSigned(names: Iterable<string>): boolean {
  for (const name of names) if (isSignedEvidenceName(name)) return true;
  return false;
}

export class AttestationCollector {
  private readonly pending: Promise<AttestationFailure | null>[] = [];
  private checked = 0;
  private unattested = 0;
  readonly gates = new Set<string>();
  /**
   * Attestation and bundle names of chained gate runs, as the listing holds them: the orphan scan
   * (attestation-orphans.ts) passes over these without working out their gate file again.
   */
  readonly accounted = new Set<string>();
  /** False when the folder holds no attestation or bundle at all: every chained run is then unattested. */
  private readonly anySigned: boolean;
  private vouched: VouchedAttestations | null = null;

  /**
   * `present` lists the evidence folder once, up front: most gate runs have no bundle (and some no
   * attestation), and a failed open per entry would cost more than the checks themselves.
   */
  constructor(
    private readonly layout: WorkspaceLayout,
    private readonly keys: ReadonlyMap<string, TrustedKey>,
    readonly present: ReadonlySet<string>,
  ) {
    this.anySigned = holdsSigned(present);
  }

  /** Entries an anchor's attestation digests cover are hashed during the walk, and settled after it. */
  vouchFor(digests: AttestationDigests): void {
    if (this.anySigned) this.vouched = new VouchedAttestations(digests, this.layout, this.present, this.accounted);
  }

  /** A chained entry whose artifact and logs verified (the chain walk's observer). */
  addEntry(featureId: string, entry: ChainEntry, logs: readonly LogRef[]): void {
    if (!this.anySigned) {
      this.unattested++;
      return;
    }
    if (this.vouched?.covers(entry)) {
      this.gates.add(entry.artifact_rel_path);
      this.vouched.hash(featureId, entry);
      return;
    }
    const target = this.targetOf(featureId, entry, logs);
    if (target) this.add(target);
  }

  /**
   * After the walk: `holds` says the chain verified and the anchor the digests belong to reproduces.
   * True when the vouched attestations count as valid (their digests match) or there were none; false
   * when they must be checked in full: the caller then verifies again without the digests.
   */
  settleVouched(holds: boolean): boolean {
    const vouched = this.vouched;
    if (vouched === null) return true;
    this.vouched = null;
    if (!holds || !vouched.matches()) {
      this.discard();
      return false;
    }
    this.checked += vouched.files;
    this.unattested += vouched.unattested;
    return true;
  }

  /** This walk's report is dropped: its pending signature checks go unread (and cannot reject unhandled). */
  discard(): void {
    void Promise.allSettled(this.pending);
  }

  /** The target of a chained entry whose artifact and logs verified. */
  targetOf(featureId: string, entry: ChainEntry, logs: readonly LogRef[]): AttestationTarget | null {
    const name = parseEvidenceFileName(baseName(entry.artifact_rel_path));
    if (name?.kind !== "gate") return null;
    const expected = expectedSubjects(entry.artifact_rel_path, entry.artifact_hash, logs);
    return { sequence: entry.sequence, featureId, gatePath: entry.artifact_rel_path, mode: name.mode, epochMs: name.epochMs, expected };
  }

  add(target: AttestationTarget): void {
    this.gates.add(target.gatePath);
    const canonical = target.sequence !== null && isCanonicalGate(target.gatePath, target.mode, target.epochMs);
    let found = false;
    for (const kind of ["envelope", "bundle"] as const) {
      // Paths are built only for files the listing holds: most gate runs have no bundle.
      const name = gateSiblingName(target.mode, target.epochMs, kind === "envelope" ? "attestation" : "bundle");
      if (!this.present.has(name)) continue;
      if (canonical) this.accounted.add(name);
      const file = kind === "envelope" ? this.layout.gateAttestation(target.featureId, target.mode, target.epochMs) : this.layout.gateBundle(target.featureId, target.mode, target.epochMs);
      const bytes = readFileShared(file);
      if (bytes === null) continue;
      const text = bytes.toString("utf8");
      found = true;
      this.checked++;
      const path = target.gatePath.slice(0, target.gatePath.lastIndexOf("/") + 1) + name;
      const shape = checkAttestationShape(text, kind, target.gatePath, target.expected);
      if (!shape.ok) {
        this.pending.push(Promise.resolve({ sequence: target.sequence, path, code: shape.code, reason: shape.reason }));
        continue;
      }
      this.pending.push(
        checkEnvelopeSignature(shape.envelope, this.keys, shape.payload).then((check): AttestationFailure | null => {
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
    failures.sort((a, b) => (a.sequence ?? Infinity) - (b.sequence ?? Infinity) || compareText(a.path, b.path));
    return { checked: this.checked, valid: this.checked - failures.length, failed: failures.length, unattested: this.unattested, failures: failures.slice(0, MAX_LISTED) };
  }
}
