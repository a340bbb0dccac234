// Whether a gate evidence file still holds the bytes its chain entry recorded when it was written. Views
// (report, OTLP, replay details) show a file's contents as the verdict only when it does; otherwise they
// mark it and take the verdict from the record made when the gate ran (docs/evidence.md, "Views").
import path from "node:path";
import type { WorkspaceLayout } from "../../store/layout.js";
import { sha256FileOrNull } from "../../store/file-hash.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import type { ChainEntry } from "./chain-hash.js";
import { readChainEntries } from "./chain-store.js";

export type EvidenceTrust =
  /** The file hashes to its chain entry's artifact_hash. */
  | { status: "chained"; chain_sequence: number }
  /** The file changed after it was chained (or is gone, or cannot be read). */
  | { status: "modified"; chain_sequence: number; expected_hash: string; actual_hash: string | null }
  /** No chain names the file (integrity off when it was written): nothing vouches for it either way. */
  | { status: "not_chained" };

/**
 * Judges gate evidence files against their features' chains, reading each feature's chain once. Meant for
 * one view built at one time (an export, a report): chains that change meanwhile are not read again.
 */
export class EvidenceTrustJudge {
  private readonly chains = new Map<string, Map<string, ChainEntry>>();

  constructor(private readonly layout: WorkspaceLayout) {}

  /** `evidencePath` is workspace-relative, as chain entries and timeline views name it. */
  judge(featureId: string, evidencePath: string): EvidenceTrust {
    const entry = this.chainOf(featureId).get(evidencePath);
    if (!entry) return { status: "not_chained" };
    let actual: string | null;
    try {
      actual = sha256FileOrNull(path.join(this.layout.root, evidencePath), { maxBytes: READ_LIMITS.evidence });
    } catch {
      actual = null; // a file that cannot be read (special file, link out, too large) vouches for nothing
    }
    if (actual === entry.artifact_hash) return { status: "chained", chain_sequence: entry.sequence };
    return { status: "modified", chain_sequence: entry.sequence, expected_hash: entry.artifact_hash, actual_hash: actual };
  }

  private chainOf(featureId: string): Map<string, ChainEntry> {
    let byPath = this.chains.get(featureId);
    if (byPath) return byPath;
    byPath = new Map();
    this.chains.set(featureId, byPath);
    try {
      for (const entry of readChainEntries(this.layout, featureId)) byPath.set(entry.artifact_rel_path, entry);
    } catch {
      // An unreadable chain vouches for nothing: every file of the feature is judged not_chained.
    }
    return byPath;
  }
}
