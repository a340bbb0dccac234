// manifest.integrity.json: {entry_count, head_hash, last_verified_at, last_verified_result}.
import { isHashString } from "../../core/hash.js";
import { isIsoUtc } from "../../core/instant.js";
import { writeJsonAtomic } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { describeRefusal, readBytesBounded, refusalCode } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { GENESIS_HASH } from "./chain-hash.js";
import type { ManifestView } from "./chain-verify.js";

export interface ChainManifest {
  entry_count: number;
  head_hash: string;
  last_verified_at: string | null;
  last_verified_result: "valid" | "invalid" | null;
}

export interface ManifestRead {
  view: ManifestView;
  manifest: ChainManifest | null;
}

/** Why a parsed manifest is unusable, or null. */
function manifestProblem(value: unknown): string | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "it is not a JSON object";
  const m = value as Record<string, unknown>;
  if (typeof m.entry_count !== "number" || !Number.isSafeInteger(m.entry_count) || m.entry_count < 0) return "entry_count is not a non-negative integer";
  if (m.head_hash !== GENESIS_HASH && !isHashString(m.head_hash)) return "head_hash is not a sha256 hash";
  if (m.last_verified_at != null && !isIsoUtc(m.last_verified_at)) return "last_verified_at is not an ISO UTC timestamp";
  return null;
}

/** `memo`: folders already found inside the workspace (see containment.ts). */
export function readManifest(layout: WorkspaceLayout, featureId: string, memo?: Set<string>): ManifestRead {
  const read = readBytesBounded(layout.manifestFile(featureId), READ_LIMITS.smallRecord, { memo });
  if (read.status === "missing") return { view: { status: "absent" }, manifest: null };
  if (read.status !== "ok") return { view: { status: "unreadable", reason: `it ${describeRefusal(read)} [${refusalCode(read)}]` }, manifest: null };
  let value: unknown;
  try {
    value = JSON.parse(read.bytes.toString("utf8"));
  } catch {
    return { view: { status: "unreadable", reason: "it is not valid JSON" }, manifest: null };
  }
  const problem = manifestProblem(value);
  if (problem) return { view: { status: "unreadable", reason: problem }, manifest: null };
  const m = value as ChainManifest;
  const manifest: ChainManifest = {
    entry_count: m.entry_count,
    head_hash: m.head_hash,
    last_verified_at: m.last_verified_at ?? null,
    last_verified_result: m.last_verified_result === "valid" || m.last_verified_result === "invalid" ? m.last_verified_result : null,
  };
  return { view: { status: "present", entry_count: manifest.entry_count, head_hash: manifest.head_hash }, manifest };
}

/**
 * Replace the manifest atomically (temp file + rename). It is not fsynced: the chain line it counts is
 * fsynced first, so after a power loss the manifest can only lag behind the chain, never run ahead of it,
 * and the next append counts the lagging entries (see chain-store.ts).
 */
export function writeManifest(layout: WorkspaceLayout, featureId: string, manifest: ChainManifest): void {
  writeJsonAtomic(layout.manifestFile(featureId), manifest, { durable: false });
}
