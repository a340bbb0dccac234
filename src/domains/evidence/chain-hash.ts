// The integrity chain's entry format and hash (docs/evidence.md). Pure: entry fields in, hashes out.
// chain_hash = sha256(JCS(entry without chain_hash and created_at)).
import { CanonicalJsonError } from "../../core/canonical-json.js";
import { hashCanonical, isHashString } from "../../core/hash.js";
import { isIsoUtc } from "../../core/instant.js";

const CHAIN_ALGORITHM_VERSION = 1;
/** The `prev_chain_hash` of sequence 0. */
export const GENESIS_HASH = "sha256:genesis";

export interface ChainEntry {
  algorithm_version: 1;
  sequence: number;
  feature_id: string;
  artifact_rel_path: string;
  artifact_hash: string;
  prev_chain_hash: string;
  chain_hash: string;
  created_at: string;
}

/** The fields the chain hash covers. */
export type ChainPayload = Omit<ChainEntry, "chain_hash" | "created_at">;

const ENTRY_KEYS = ["algorithm_version", "sequence", "feature_id", "artifact_rel_path", "artifact_hash", "prev_chain_hash", "chain_hash", "created_at"] as const;

function chainPayload(entry: ChainPayload): ChainPayload {
  return {
    algorithm_version: entry.algorithm_version,
    sequence: entry.sequence,
    feature_id: entry.feature_id,
    artifact_rel_path: entry.artifact_rel_path,
    artifact_hash: entry.artifact_hash,
    prev_chain_hash: entry.prev_chain_hash,
  };
}

export function computeChainHash(entry: ChainPayload): string {
  return hashCanonical(chainPayload(entry));
}

/** computeChainHash for entries read from disk: null when a field cannot be canonicalized (a lone surrogate). */
export function recomputeChainHash(entry: ChainPayload): string | null {
  try {
    return computeChainHash(entry);
  } catch (err) {
    if (err instanceof CanonicalJsonError) return null;
    throw err;
  }
}

/** A complete entry, keys in the documented order, its chain_hash computed. */
export function buildChainEntry(fields: Omit<ChainPayload, "algorithm_version"> & { created_at: string }): ChainEntry {
  const payload: ChainPayload = {
    algorithm_version: CHAIN_ALGORITHM_VERSION,
    sequence: fields.sequence,
    feature_id: fields.feature_id,
    artifact_rel_path: fields.artifact_rel_path,
    artifact_hash: fields.artifact_hash,
    prev_chain_hash: fields.prev_chain_hash,
  };
  return { ...payload, chain_hash: computeChainHash(payload), created_at: fields.created_at };
}

/** Why `value` is not a well-formed chain entry, or null. Extra or missing keys are malformed. */
export function chainEntryProblem(value: unknown): string | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "is not a JSON object";
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (const key of ENTRY_KEYS) if (!(key in record)) return `has no ${key}`;
  if (keys.length !== ENTRY_KEYS.length) return `has unexpected keys (${keys.filter((k) => !(ENTRY_KEYS as readonly string[]).includes(k)).join(", ")})`;
  if (record.algorithm_version !== CHAIN_ALGORITHM_VERSION) return `has algorithm_version ${JSON.stringify(record.algorithm_version)} (only ${CHAIN_ALGORITHM_VERSION} is known)`;
  const seq = record.sequence;
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 0) return "has a sequence that is not a non-negative integer";
  if (typeof record.feature_id !== "string" || typeof record.artifact_rel_path !== "string") return "has a non-string feature_id or artifact_rel_path";
  if (!isHashString(record.artifact_hash)) return "has a malformed artifact_hash";
  if (!isHashString(record.chain_hash)) return "has a malformed chain_hash";
  if (record.prev_chain_hash !== GENESIS_HASH && !isHashString(record.prev_chain_hash)) return "has a malformed prev_chain_hash";
  if (!isIsoUtc(record.created_at)) return "has a created_at that is not an ISO UTC timestamp";
  return null;
}

/** Serialize an entry as its JSONL line (without the newline). */
export function chainLine(entry: ChainEntry): string {
  return JSON.stringify(entry);
}
