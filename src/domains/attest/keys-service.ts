// `aop keys init` and `aop keys list`: local setup, not a kernel tool (docs/evidence.md "Keys"). A private
// key never leaves its file; these report only ids and paths.
import fs from "node:fs";
import path from "node:path";
import { AopError } from "../../core/errors.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import type { Signer } from "./ed25519-keys.js";
import { readCommittedKeys, writePublicKey, type KeyFileProblem } from "./public-keys.js";
import { assertKeyOutsideWorkTrees } from "./key-location.js";
import { explicitKeyFile, generateKeyFile, loadSigner, localKeyFiles, privateKeysDir, type KeyEnvironment } from "./signing-key.js";
import { workspaceSigner } from "./workspace-signer.js";

export interface KeyInitResult {
  keyid: string;
  /** Where the private key is (a path: its contents are never shown). */
  private_key_path: string;
  private_key_created: boolean;
  public_key_path: string;
  public_key_created: boolean;
}

interface ListedKey {
  keyid: string;
  public_key_path: string;
  /** The local private key file for it, or null when this machine cannot sign with it. */
  private_key_path: string | null;
}

export interface KeyList {
  keys: ListedKey[];
  /** The key this workspace signs with here, or null (with the reason). */
  signing_keyid: string | null;
  signing_problem: string | null;
  problems: KeyFileProblem[];
}

const WORKSPACE_MARKERS = [".aop", path.join("agentic", "orchestrator"), ".git"];

function requireWorkspace(layout: WorkspaceLayout): void {
  if (!WORKSPACE_MARKERS.some((m) => fs.existsSync(path.join(layout.root, m)))) {
    throw new AopError("invalid_argument", `${layout.root} is not an aop workspace (no .aop/, agentic/orchestrator/ or .git)`, { hint: "run `aop init` first, or pass --root" });
  }
}

/** A key already there is adopted only where a new one could be written (never in a work tree). */
function adopt(layout: WorkspaceLayout, ke: KeyEnvironment, file: string, explicit: boolean): { signer: Signer; file: string } {
  assertKeyOutsideWorkTrees({ file, explicit, defaultDir: privateKeysDir(ke) }, layout.root);
  return { signer: loadSigner(file), file };
}

/**
 * Reuse the key this workspace already signs with (or the AOP_SIGNING_KEY file); otherwise, or with
 * `fresh`, make a new one. Either way its public key ends up in agentic/orchestrator/keys/.
 */
export function initSigningKey(layout: WorkspaceLayout, ke: KeyEnvironment, options: { fresh?: boolean } = {}): KeyInitResult {
  requireWorkspace(layout);
  const explicit = explicitKeyFile(ke);
  let signer: Signer;
  let file: string;
  let created = false;
  if (explicit !== null && fs.existsSync(explicit)) {
    if (options.fresh) throw new AopError("invalid_argument", `AOP_SIGNING_KEY names ${explicit}, which exists; a new key needs a new file`, { hint: "point AOP_SIGNING_KEY at a path that does not exist yet, or unset it" });
    ({ signer, file } = adopt(layout, ke, explicit, true));
  } else if (explicit !== null) {
    ({ signer, file } = generateKeyFile(ke, explicit, layout.root));
    created = true;
  } else {
    const committed = readCommittedKeys(layout).keys;
    const existing = options.fresh ? [] : localKeyFiles(ke).filter((k) => committed.has(k.keyid));
    if (existing.length > 1) workspaceSigner(layout, ke); // names the ambiguity
    if (existing.length === 1) {
      ({ signer, file } = adopt(layout, ke, existing[0]!.file, false));
    } else {
      ({ signer, file } = generateKeyFile(ke, null, layout.root));
      created = true;
    }
  }
  const pub = writePublicKey(layout, signer);
  return { keyid: signer.keyid, private_key_path: file, private_key_created: created, public_key_path: pub.rel_path, public_key_created: pub.created };
}

export function listKeys(layout: WorkspaceLayout, ke: KeyEnvironment): KeyList {
  const committed = readCommittedKeys(layout);
  const local = new Map(localKeyFiles(ke).map((k) => [k.keyid, k.file]));
  const explicit = explicitKeyFile(ke);
  let signingKeyid: string | null = null;
  let problem: string | null = null;
  try {
    signingKeyid = workspaceSigner(layout, ke).keyid;
  } catch (err) {
    if (!(err instanceof AopError)) throw err;
    problem = `${err.code}: ${err.message}`;
  }
  const keys = [...committed.keys.values()].map((k) => ({
    keyid: k.keyid,
    public_key_path: k.rel_path,
    private_key_path: signingKeyid === k.keyid && explicit !== null ? explicit : (local.get(k.keyid) ?? null),
  }));
  return { keys, signing_keyid: signingKeyid, signing_problem: problem, problems: committed.problems };
}
