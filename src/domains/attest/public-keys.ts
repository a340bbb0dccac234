// The public keys committed with the workspace (agentic/orchestrator/keys/<keyid>.pub, SPKI PEM): the only
// keys verification trusts. A file that is not a plain Ed25519 key named by its own id is not trusted.
import fs from "node:fs";
import path from "node:path";
import { createPublicKey, type KeyObject } from "node:crypto";
import { createFileAtomic } from "../../store/atomic-write.js";
import { listDirIfPresent } from "../../store/fs-probe.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readTextBounded } from "../../store/read-text-bounded.js";
import { isEd25519, KEY_ID_PATTERN, trustedKey, type Signer, type TrustedKey } from "./ed25519-keys.js";

interface CommittedKey extends TrustedKey {
  rel_path: string;
}

export interface KeyFileProblem {
  rel_path: string;
  reason: string;
}

export interface CommittedKeys {
  keys: Map<string, CommittedKey>;
  problems: KeyFileProblem[];
}

const MAX_PUBLIC_KEY_BYTES = 16 * 1024;

function readKey(file: string, stem: string): TrustedKey | string {
  if (!KEY_ID_PATTERN.test(stem)) return "its name is not <keyid>.pub (64 lowercase hex characters)";
  if (fs.lstatSync(file).isSymbolicLink()) return "it is a symbolic link";
  const read = readTextBounded(file, MAX_PUBLIC_KEY_BYTES);
  if (read.status !== "ok") return read.status === "unreadable" ? read.reason : `it is ${read.status.replace("_", " ")}`;
  if (read.truncated || read.binary) return "it is not a PEM public key";
  let key: KeyObject;
  try {
    key = createPublicKey({ key: read.text, format: "pem" });
  } catch {
    return "it is not a PEM public key";
  }
  if (!isEd25519(key)) return `it holds a ${key.asymmetricKeyType ?? "non-asymmetric"} key, not Ed25519`;
  const trusted = trustedKey(key);
  if (trusted.keyid !== stem) return `it holds key ${trusted.keyid.slice(0, 12)}…, not the key its name says`;
  return trusted;
}

export function readCommittedKeys(layout: WorkspaceLayout): CommittedKeys {
  const out: CommittedKeys = { keys: new Map(), problems: [] };
  for (const name of listDirIfPresent(layout.keysDir).filter((n) => n.endsWith(".pub")).sort()) {
    const file = path.join(layout.keysDir, name);
    const key = readKey(file, name.slice(0, -4));
    if (typeof key === "string") out.problems.push({ rel_path: layout.relative(file), reason: key });
    else out.keys.set(key.keyid, { ...key, rel_path: layout.relative(file) });
  }
  return out;
}

function publicKeyPem(key: TrustedKey): string {
  return key.publicKey.export({ type: "spki", format: "pem" }).toString();
}

/** Write the signer's public key for verifiers (never replaced: a key's file holds only that key). */
export function writePublicKey(layout: WorkspaceLayout, signer: Signer): { rel_path: string; created: boolean } {
  const file = layout.publicKeyFile(signer.keyid);
  const created = createFileAtomic(file, publicKeyPem(signer), { mode: 0o644 });
  return { rel_path: layout.relative(file), created };
}
