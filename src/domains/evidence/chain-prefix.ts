// The part of a chain its manifest counts, as raw line bytes: what an anchor signs a Merkle root over.
// Call under the feature's evidence lock, so no append is half-done while the chain is read.
import { AopError } from "../../core/errors.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readFileBounded } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { readManifest } from "./chain-manifest.js";

export interface CountedChain {
  entry_count: number;
  head_hash: string;
  /** The first entry_count lines of chain.jsonl, without their newlines. */
  lines: Buffer[];
}

/** Split file bytes into complete lines (a torn final line, without "\n", is left out). */
export function completeLines(bytes: Buffer, max = Infinity): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  while (lines.length < max) {
    const nl = bytes.indexOf(0x0a, start);
    if (nl === -1) break;
    lines.push(bytes.subarray(start, nl));
    start = nl + 1;
  }
  return lines;
}

function refused(layout: WorkspaceLayout, featureId: string, reason: string): AopError {
  return new AopError("evidence_chain_discontinuity", `${layout.relative(layout.chainFile(featureId))}: ${reason}`, {
    details: { feature_id: featureId },
    hint: `run \`aop evidence verify --feature-id ${featureId}\` to locate the problem`,
  });
}

export function readCountedChainLocked(layout: WorkspaceLayout, featureId: string): CountedChain {
  const { view, manifest } = readManifest(layout, featureId);
  if (view.status === "unreadable") throw refused(layout, featureId, `the manifest cannot be trusted: ${view.reason}`);
  // Bounded, regular files only, never through a link out of the workspace (docs/hardening.md).
  const bytes = readFileBounded(layout.chainFile(featureId), READ_LIMITS.chainWhole);
  if (bytes === null) {
    throw new AopError("evidence_chain_missing", `feature '${featureId}' has no integrity chain`, { details: { feature_id: featureId }, hint: "chains are written by gate runs when evidence integrity is on in policy" });
  }
  if (!manifest || manifest.entry_count === 0) throw refused(layout, featureId, "the manifest counts no entries");
  const lines = completeLines(bytes, manifest.entry_count);
  if (lines.length < manifest.entry_count) throw refused(layout, featureId, `the manifest records ${manifest.entry_count} entries but the chain has ${lines.length}`);
  let head: unknown;
  try {
    head = (JSON.parse(lines[lines.length - 1]!.toString("utf8")) as { chain_hash?: unknown }).chain_hash;
  } catch {
    head = null;
  }
  if (head !== manifest.head_hash) throw refused(layout, featureId, `entry ${manifest.entry_count - 1} is not the head the manifest records`);
  return { entry_count: manifest.entry_count, head_hash: manifest.head_hash, lines };
}
