// The private signing key: where it lives, how it is made and how it is loaded (docs/evidence.md "Keys").
// AOP_SIGNING_KEY names the key file; otherwise keys live in $XDG_CONFIG_HOME/aop/keys/<keyid>.key
// (XDG_CONFIG_HOME defaults to ~/.config). Key material never reaches an error message, a log or a file
// other than the key file itself.
import fs from "node:fs";
import path from "node:path";
import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import { AopError } from "../../core/errors.js";
import { listDirIfPresent } from "../../store/fs-probe.js";
import { isEd25519, KEY_ID_PATTERN, signerFor, type Signer } from "./ed25519-keys.js";
import { assertKeyOutsideWorkTrees } from "./key-location.js";
import { compareText } from "../../core/compare-text.js";

export interface KeyEnvironment {
  env: NodeJS.ProcessEnv;
  homeDir: string;
}

const MAX_KEY_BYTES = 16 * 1024;
const KEY_FILE = /^([0-9a-f]{64})\.key$/;

export function privateKeysDir(ke: KeyEnvironment): string {
  const base = ke.env.XDG_CONFIG_HOME && path.isAbsolute(ke.env.XDG_CONFIG_HOME) ? ke.env.XDG_CONFIG_HOME : path.join(ke.homeDir, ".config");
  return path.join(base, "aop", "keys");
}

/** The key file AOP_SIGNING_KEY names, or null. */
export function explicitKeyFile(ke: KeyEnvironment): string | null {
  const value = ke.env.AOP_SIGNING_KEY;
  return value ? path.resolve(value) : null;
}

function defaultKeyFile(ke: KeyEnvironment, keyid: string): string {
  if (!KEY_ID_PATTERN.test(keyid)) throw new AopError("invalid_argument", "a key id is 64 lowercase hex characters");
  return path.join(privateKeysDir(ke), `${keyid}.key`);
}

/** Key files in the keys folder, by the key id their name carries (checked when one is loaded). */
export function localKeyFiles(ke: KeyEnvironment): { keyid: string; file: string }[] {
  const dir = privateKeysDir(ke);
  return listDirIfPresent(dir).flatMap((name) => {
    const m = KEY_FILE.exec(name);
    return m ? [{ keyid: m[1]!, file: path.join(dir, name) }] : [];
  }).sort((a, b) => compareText(a.keyid, b.keyid));
}

function invalid(file: string, reason: string): AopError {
  return new AopError("signing_key_invalid", `signing key ${file}: ${reason}`, { details: { key_file: file }, hint: "point AOP_SIGNING_KEY at an Ed25519 PKCS#8 PEM key, or create one with `aop keys init`" });
}

/** Read the key file's bytes after checking it is a private, regular file of ours. */
function readKeyFile(file: string): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new AopError("signing_key_missing", `signing key ${file} does not exist`, { details: { key_file: file }, hint: "create one with `aop keys init`" });
    throw invalid(file, `it cannot be opened (${code ?? "error"})`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw invalid(file, "it is not a regular file");
    if ((stat.mode & 0o077) !== 0) {
      throw new AopError("signing_key_insecure", `signing key ${file} is readable by others (mode ${(stat.mode & 0o777).toString(8).padStart(4, "0")}); it was not used`, {
        details: { key_file: file },
        hint: `chmod 600 ${file}`,
      });
    }
    if (typeof process.getuid === "function" && stat.uid !== process.getuid()) {
      throw new AopError("signing_key_insecure", `signing key ${file} belongs to another user; it was not used`, { details: { key_file: file } });
    }
    if (stat.size > MAX_KEY_BYTES) throw invalid(file, `it is ${stat.size} bytes, too big for an Ed25519 key`);
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = fs.readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}

/** Load a private key file (PKCS#8 PEM, Ed25519, mode 0600); errors name the file, never its contents. */
export function loadSigner(file: string): Signer {
  const bytes = readKeyFile(file);
  let signer: Signer;
  try {
    const key = createPrivateKey({ key: bytes, format: "pem" });
    if (!isEd25519(key)) throw invalid(file, `it holds a ${key.asymmetricKeyType ?? "non-asymmetric"} key; aop signs with Ed25519`);
    signer = signerFor(key);
  } catch (err) {
    if (err instanceof AopError) throw err;
    // Node's message says only what failed to parse (never the key bytes), but keep to our own words.
    throw invalid(file, "it is not an unencrypted PKCS#8 PEM private key");
  } finally {
    bytes.fill(0);
  }
  const named = KEY_FILE.exec(path.basename(file))?.[1];
  if (named !== undefined && named !== signer.keyid) throw invalid(file, `its name says key ${named.slice(0, 12)}… but it holds key ${signer.keyid.slice(0, 12)}…`);
  return signer;
}

/** Refuses a path where a link stands whose target does not exist: creating the key "there" would follow it. */
function refuseDanglingLink(file: string): void {
  let target: string;
  try {
    if (!fs.lstatSync(file).isSymbolicLink()) return;
    target = fs.readlinkSync(file);
  } catch {
    return; // nothing there: the key is created
  }
  throw new AopError("signing_key_invalid", `signing key ${file} is a symbolic link to ${target}, which does not exist; no key was created`, {
    details: { key_file: file, link_target: target },
    hint: `point AOP_SIGNING_KEY at the key file itself, or remove the link (rm ${file}) so that \`aop keys init\` creates the key there`,
  });
}

/**
 * A new Ed25519 key written to `file` (exclusively, mode 0600, folder 0700); `file` null → the keys folder.
 * Never inside `workspaceRoot` or a git work tree (key-location.ts), and never through a link.
 */
export function generateKeyFile(ke: KeyEnvironment, file: string | null, workspaceRoot: string): { signer: Signer; file: string } {
  const { privateKey } = generateKeyPairSync("ed25519");
  const signer = signerFor(privateKey);
  const target = file ?? defaultKeyFile(ke, signer.keyid);
  refuseDanglingLink(target);
  assertKeyOutsideWorkTrees({ file: target, explicit: file !== null, defaultDir: privateKeysDir(ke) }, workspaceRoot);
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const pem = privateKey.export({ type: "pkcs8", format: "pem" });
  let fd: number;
  try {
    fd = fs.openSync(target, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    throw invalid(target, "a file or link appeared there while the key was made; nothing was written to it");
  }
  try {
    fs.fchmodSync(fd, 0o600);
    fs.writeFileSync(fd, pem);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return { signer, file: target };
}
