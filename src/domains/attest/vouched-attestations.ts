// Attestations an anchor's digests vouch for (attestation-digests.ts). During the walk each is only
// hashed; afterwards, if the chain, the anchor and every digest hold, they count as checked and valid;
// otherwise each is checked in full after all, so the report is the one verification without digests
// gives (docs/evidence.md, "Anchored attestation digests").
import { AopError } from "../../core/errors.js";
import { sha256FileOrNull } from "../../store/file-hash.js";
import { gateEvidenceName, gateSiblingName, type WorkspaceLayout } from "../../store/layout.js";
import { baseName, parseEvidenceFileName, type ChainEntry, type LogRef } from "../evidence/index.js";
import { attestationLeaf, type AttestationDigests } from "./attestation-digests.js";
import { merkleRoot } from "./merkle-tree.js";

const HEX_FROM = "sha256:".length;

/**
 * The gate file is named exactly as its mode and time print (no leading zeros): only then does the
 * orphan scan map its attestation's name back to it.
 */
export function isCanonicalGate(gatePath: string, mode: string, epochMs: number): boolean {
  return baseName(gatePath) === gateEvidenceName(mode, epochMs);
}

export class VouchedAttestations {
  private readonly leaves: Buffer[] = [];
  /** The entries hashed so far, in order, for the full check should the digests not hold. */
  readonly held: [ChainEntry, readonly LogRef[]][] = [];
  /** Attestation files hashed, and entries with none. */
  files = 0;
  unattested = 0;
  private unreadable = false;
  /** Folders found inside the workspace (containment.ts): the evidence folder is resolved once. */
  private readonly folders = new Set<string>();

  constructor(
    readonly claim: AttestationDigests,
    private readonly layout: WorkspaceLayout,
    private readonly present: ReadonlySet<string>,
    /** Names of chained runs' attestations, shared with the collector (its orphan scan skips them). */
    private readonly accounted: Set<string>,
  ) {}

  covers(entry: ChainEntry): boolean {
    return entry.sequence < this.claim.size;
  }

  private digestOf(featureId: string, mode: string, epochMs: number, kind: "attestation" | "bundle", canonical: boolean): string | null {
    const name = gateSiblingName(mode, epochMs, kind);
    if (!this.present.has(name)) return null;
    if (canonical) this.accounted.add(name);
    const file = kind === "attestation" ? this.layout.gateAttestation(featureId, mode, epochMs) : this.layout.gateBundle(featureId, mode, epochMs);
    try {
      const digest = sha256FileOrNull(file, { memo: this.folders });
      return digest === null ? null : digest.slice(HEX_FROM);
    } catch (err) {
      // A file the store refuses: the full check reports it (or throws) as it would without digests.
      if (!(err instanceof AopError)) throw err;
      this.unreadable = true;
      return null;
    }
  }

  /** A chained entry whose artifact and logs verified, below the digests' size. */
  hash(featureId: string, entry: ChainEntry, logs: readonly LogRef[]): void {
    this.held.push([entry, logs]);
    const name = parseEvidenceFileName(baseName(entry.artifact_rel_path));
    if (name?.kind !== "gate") {
      this.unreadable = true; // not a gate run: nothing an anchor vouched for
      return;
    }
    const { mode, epochMs } = name;
    const canonical = isCanonicalGate(entry.artifact_rel_path, mode, epochMs);
    const envelope = this.digestOf(featureId, mode, epochMs, "attestation", canonical);
    const bundle = this.digestOf(featureId, mode, epochMs, "bundle", canonical);
    this.leaves.push(attestationLeaf(envelope, bundle));
    if (envelope === null && bundle === null) this.unattested++;
    this.files += (envelope === null ? 0 : 1) + (bundle === null ? 0 : 1);
  }

  /** True when every covered entry was hashed, each file readable, and their tree's root is the one signed. */
  matches(): boolean {
    return !this.unreadable && this.held.length === this.claim.size && merkleRoot(this.leaves).toString("base64") === this.claim.root;
  }
}
