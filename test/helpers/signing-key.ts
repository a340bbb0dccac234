// Signing keys for tests, always in temp folders (never the real ~/.config): a generated Ed25519 key file
// (0600) and a way to commit its public key to a workspace.
import fs from "node:fs";
import path from "node:path";
import { createPublicKey, generateKeyPairSync, hash } from "node:crypto";
import { tempDir, writeFile } from "./tmp.js";

export interface SigningKeyFixture {
  keyid: string;
  /** The private key file (PKCS#8 PEM, mode 0600). */
  file: string;
  privatePem: string;
  publicPem: string;
  /** Write the public key to `<root>/agentic/orchestrator/keys/<keyid>.pub`. */
  commitTo(root: string): string;
}

export function signingKeyFixture(dir = tempDir("aop-key-")): SigningKeyFixture {
  const { privateKey } = generateKeyPairSync("ed25519");
  const publicKey = createPublicKey(privateKey);
  const privatePem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const publicPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  const keyid = hash("sha256", publicKey.export({ type: "spki", format: "der" }), "hex");
  const file = path.join(dir, `${keyid}.key`);
  fs.writeFileSync(file, privatePem, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return { keyid, file, privatePem, publicPem, commitTo: (root) => writeFile(root, `agentic/orchestrator/keys/${keyid}.pub`, publicPem) };
}

/** Environment for a CLI child: no real home config, only the given key (or none). */
export function keyEnv(options: { key?: SigningKeyFixture; xdg?: string } = {}): Record<string, string | undefined> {
  return { XDG_CONFIG_HOME: options.xdg ?? tempDir("aop-xdg-"), AOP_SIGNING_KEY: options.key?.file, HOME: tempDir("aop-home-") };
}
