// A third party with only the committed public key and OpenSSL 3 verifies what `aop` signed: the DSSE
// signature over the PAE bytes of an attestation (built with @sigstore/core, not our code), the
// anchor's signed-note signature, and the documented key id derivation.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { dsse } from "@sigstore/core";
import { beforeAll, describe, expect, it } from "vitest";
import { signedWorkspace, type SignedWorkspace } from "../../helpers/attest.js";
import { tempDir } from "../../helpers/tmp.js";

let ws: SignedWorkspace;
let envelope: { payloadType: string; payload: string; signatures: { keyid: string; sig: string }[] };
let pub: string;
const out = tempDir("aop-openssl-");

function openssl(args: string[]) {
  return spawnSync("openssl", args, { encoding: "utf8" });
}

/** `openssl pkeyutl -verify -rawin` of `message` (written to a file: OpenSSL 3.0 cannot take it on stdin). */
function opensslVerifies(message: Buffer, signature: Buffer, name: string) {
  fs.writeFileSync(path.join(out, `${name}.bin`), message);
  fs.writeFileSync(path.join(out, `${name}.sig`), signature);
  return openssl(["pkeyutl", "-verify", "-pubin", "-inkey", pub, "-rawin", "-in", path.join(out, `${name}.bin`), "-sigfile", path.join(out, `${name}.sig`)]);
}

beforeAll(() => {
  expect(openssl(["version"]).stdout).toMatch(/^OpenSSL 3\./);
  ws = signedWorkspace();
  const run = ws.json<{ attestation: { path: string } }>(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
  expect(run.code, run.stderr).toBe(0);
  envelope = JSON.parse(fs.readFileSync(ws.abs(run.json.attestation.path), "utf8"));
  pub = ws.abs(`agentic/orchestrator/keys/${ws.key.keyid}.pub`);
});

describe("openssl verifies aop's signatures with the committed public key", () => {
  it("the DSSE signature over the PAE of the gate run's attestation", () => {
    const pae = dsse.preAuthEncoding(envelope.payloadType, Buffer.from(envelope.payload, "base64"));
    const r = opensslVerifies(pae, Buffer.from(envelope.signatures[0]!.sig, "base64"), "pae");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Signature Verified Successfully/);
  });

  it("a one-byte change in the payload fails", () => {
    const payload = Buffer.from(envelope.payload, "base64");
    payload[payload.indexOf("PASSED")] = "F".charCodeAt(0);
    const r = opensslVerifies(dsse.preAuthEncoding(envelope.payloadType, payload), Buffer.from(envelope.signatures[0]!.sig, "base64"), "pae-tampered");
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/Signature Verification Failure/);
  });

  it("the anchor's note signature (over the checkpoint text, after the 4-byte key hash)", () => {
    const anchored = ws.json<{ note: string }>(["evidence", "anchor", "--feature-id", "feat_a"]);
    expect(anchored.code, anchored.stderr).toBe(0);
    const note = anchored.json.note;
    const text = note.slice(0, note.lastIndexOf("\n\n") + 1);
    const blob = Buffer.from(note.trimEnd().split(" ").at(-1)!, "base64");
    expect(opensslVerifies(Buffer.from(text), blob.subarray(4), "note").status).toBe(0);
    expect(opensslVerifies(Buffer.from(text.replace("\n1\n", "\n2\n")), blob.subarray(4), "note-tampered").status).toBe(1);
  });

  it("the key id is the SHA-256 of the public key's DER, as openssl computes it", () => {
    const der = spawnSync("openssl", ["pkey", "-pubin", "-in", pub, "-outform", "DER"]);
    fs.writeFileSync(path.join(out, "pub.der"), der.stdout);
    const digest = openssl(["dgst", "-sha256", "-r", path.join(out, "pub.der")]).stdout.split(" ")[0];
    expect(digest).toBe(ws.key.keyid);
    expect(envelope.signatures[0]!.keyid).toBe(ws.key.keyid);
  });
});
