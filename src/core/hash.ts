// Hash strings are `sha256:<64 lowercase hex>` everywhere (timeline, ledger, chain, manifest).
import type * as Crypto from "node:crypto";
import { canonicalJson } from "./canonical-json.js";
import { sha256HexJs } from "./sha256.js";

let crypto: typeof Crypto | undefined;

/**
 * node:crypto, loaded on first use: loading it is some 3% of a bare Node start, paid by every command
 * that imports a module which might hash, hashing or not (docs/replay.md).
 */
export function nodeCrypto(): typeof Crypto {
  return (crypto ??= process.getBuiltinModule("node:crypto"));
}

export const HASH_PREFIX = "sha256:";
const HASH_PATTERN = /^sha256:[0-9a-f]{64}$/;
const BARE_HEX_PATTERN = /^[0-9a-f]{64}$/;

// One-shot crypto.hash (Node >= 20.12) skips the Hash object: ~30% faster on the small inputs hashed most.
export function sha256Hex(data: string | Uint8Array): string {
  return nodeCrypto().hash("sha256", data, "hex");
}

export function sha256Of(data: string | Uint8Array): string {
  return HASH_PREFIX + sha256Hex(data);
}

/** Hash of the RFC 8785 canonical form of a JSON value. */
export function hashCanonical(value: unknown): string {
  return sha256Of(canonicalJson(value));
}

// Up to this many bytes, hashing in JavaScript costs a cold process less than loading node:crypto.
const SMALL_INPUT_BYTES = 2048;

/**
 * hashCanonical for a process that hashes a value or two and exits (the Claude Code hook): a small
 * value is hashed in JavaScript unless node:crypto is loaded already (core/sha256.ts). Same digest.
 */
export function hashCanonicalCold(value: unknown): string {
  const json = canonicalJson(value);
  if (crypto === undefined && json.length <= SMALL_INPUT_BYTES) {
    const bytes = Buffer.from(json, "utf8");
    if (bytes.length <= SMALL_INPUT_BYTES) return HASH_PREFIX + sha256HexJs(bytes);
  }
  return sha256Of(json);
}

export function isHashString(value: unknown): value is string {
  return typeof value === "string" && HASH_PATTERN.test(value);
}

/** Accepts ours (`sha256:<hex>`) and the upstream orchestrator's bare hex; returns ours or null. */
export function normalizeHash(value: unknown): string | null {
  if (typeof value !== "string") return null;
  if (HASH_PATTERN.test(value)) return value;
  if (BARE_HEX_PATTERN.test(value)) return HASH_PREFIX + value;
  return null;
}
