// Attestations an anchor's digests vouch for (attestation-digests.ts). During the walk each is only
// hashed, its leaf folded into the digests' tree as it comes (no entry or leaf is kept); afterwards, if
// the chain, the anchor and every digest hold, they count as checked and valid. Otherwise verification
// runs again without the digests (verify-evidence.ts), so the report is the one verification without
// them gives (docs/evidence.md, "Anchored attestation digests").
import path from "node:path";
import { AopError } from "../../core/errors.js";
import { HASH_PREFIX } from "../../core/hash.js";
import { sha256FileOrNull } from "../../store/file-hash.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { gateEvidenceName, gateSiblingName } from "../../store/gate-file-names.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { baseName, parseEvidenceFileName, type ChainEntry } from "../evidence/index.js";
import { attestationLeaf, type AttestationDigests } from "./attestation-digests.js";
import { appendToFrontier, frontierRoot } from "./merkle-tree.js";

const HEX_FROM = HASH_PREFIX.length;

/**
 * The gate file is named exactly as its mode and time print (no leading zeros): only then does the
 * orphan scan map its attestation's name back to it.
 */
export function isCanonicalGate(gatePath: string, mode: string, epochMs: number): boolean {
  return baseName(gatePath) === gateEvidenceName(mode, epochMs);
}

export class VouchedAttestations {
  /** The digests' tree as far as the walk got: its compact range and size (merkle-tree.ts). */
  private readonly frontier: Buffer[] = [];
  private size = 0;
  /** Attestation files hashed, and entries with none. */
  files = 0;
  unattested = 0;
  private unreadable = false;
  /** Folders found inside the workspace (containment.ts): the evidence folder is resolved once. */
  private readonly folders = new Set<string>();
  /** The evidence folder of the feature walked, with a trailing separator. */
  private folder: { featureId: string; prefix: string } | null = null;

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

  private prefixOf(featureId: string): string {
    if (this.folder?.featureId !== featureId) this.folder = { featureId, prefix: this.layout.evidenceDir(featureId) + path.sep };
    return this.folder.prefix;
  }

  private digestOf(prefix: string, name: string, canonical: boolean): string | null {
    if (!this.present.has(name)) return null;
    if (canonical) this.accounted.add(name);
    try {
      // The full check reads attestations under the evidence bound: hash no more than it would read.
      const digest = sha256FileOrNull(prefix + name, { memo: this.folders, maxBytes: READ_LIMITS.evidence });
      return digest === null ? null : digest.slice(HEX_FROM);
    } catch (err) {
      // A file the store refuses: the check without digests reports it (or throws) as it would anyway.
      if (!(err instanceof AopError)) throw err;
      this.unreadable = true;
      return null;
    }
  }

  /** A chained entry whose artifact and logs verified, below the digests' size. */
  hash(featureId: string, entry: ChainEntry): void {
    const name = parseEvidenceFileName(baseName(entry.artifact_rel_path));
    if (name?.kind !== "gate") {
      this.unreadable = true; // not a gate run: nothing an anchor vouched for
      return;
    }
    const { mode, epochMs } = name;
    const canonical = isCanonicalGate(entry.artifact_rel_path, mode, epochMs);
    const prefix = this.prefixOf(featureId);
    const envelope = this.digestOf(prefix, gateSiblingName(mode, epochMs, "attestation"), canonical);
    const bundle = this.digestOf(prefix, gateSiblingName(mode, epochMs, "bundle"), canonical);
    appendToFrontier(this.frontier, this.size++, attestationLeaf(envelope, bundle));
    if (envelope === null && bundle === null) this.unattested++;
    this.files += (envelope === null ? 0 : 1) + (bundle === null ? 0 : 1);
  }

  /** True when every covered entry was hashed, each file readable, and their tree's root is the one signed. */
  matches(): boolean {
    return !this.unreadable && this.size === this.claim.size && frontierRoot(this.frontier).toString("base64") === this.claim.root;
  }
}
