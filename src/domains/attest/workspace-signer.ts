// Which key signs in a workspace: AOP_SIGNING_KEY if set, else the one local key whose public key is
// committed here. A key verifiers cannot find is never used, so nothing is signed that will not verify.
import { AopError } from "../../core/errors.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import type { Signer } from "./ed25519-keys.js";
import { readCommittedKeys } from "./public-keys.js";
import { explicitKeyFile, loadSigner, localKeyFiles, privateKeysDir, type KeyEnvironment } from "./signing-key.js";

export function workspaceSigner(layout: WorkspaceLayout, ke: KeyEnvironment): Signer {
  const committed = readCommittedKeys(layout).keys;
  const keysRel = layout.relative(layout.keysDir);
  const explicit = explicitKeyFile(ke);
  if (explicit !== null) {
    const signer = loadSigner(explicit);
    if (!committed.has(signer.keyid)) {
      throw new AopError("signing_key_missing", `the public key of AOP_SIGNING_KEY (${signer.keyid.slice(0, 12)}…) is not in ${keysRel}/, so nothing it signs would verify`, {
        details: { keyid: signer.keyid },
        hint: "run `aop keys init` (with AOP_SIGNING_KEY set) to write its public key, then commit it",
      });
    }
    return signer;
  }
  const usable = localKeyFiles(ke).filter((k) => committed.has(k.keyid));
  if (usable.length === 0) {
    throw new AopError("signing_key_missing", `no signing key: none of the keys in ${privateKeysDir(ke)} has its public key in ${keysRel}/`, {
      hint: "run `aop keys init` to create one (or set AOP_SIGNING_KEY to your key file)",
    });
  }
  if (usable.length > 1) {
    throw new AopError("signing_key_ambiguous", `${usable.length} local keys have public keys in ${keysRel}/ (${usable.map((k) => k.keyid.slice(0, 12) + "…").join(", ")})`, {
      details: { keyids: usable.map((k) => k.keyid) },
      hint: "set AOP_SIGNING_KEY to the key file to sign with",
    });
  }
  return loadSigner(usable[0]!.file);
}
