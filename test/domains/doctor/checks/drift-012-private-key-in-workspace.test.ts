import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { check, findPrivateKeys, LIMITS, privateKeyCheck, privateKeyKind } from "../../../../src/domains/doctor/checks/drift-012-private-key-in-workspace.js";
import { fixedClock, monotonicMs } from "../../../../src/core/clock.js";
import { DOCTOR_FAMILIES } from "../../../../src/app/doctor-checks.js";
import { runDoctor } from "../../../../src/domains/doctor/engine.js";
import { runCheck, testCheck } from "../../../helpers/check-tester.js";
import { DRIFT_CASES, DriftFixture, NOW } from "../drift-fixtures.js";
import { tempDir } from "../../../helpers/tmp.js";

const pkcs8 = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const encrypted = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "p" }).toString();
const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs1", format: "pem" }).toString();
const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "sec1", format: "pem" }).toString();
const publicPem = generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "pem" }).toString();
// An OpenSSH key's armor and first line; the body is irrelevant to the search.
const openssh = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n";
const body = (pem: string) => pem.split("\n")[1]!;

const OK = "no private key in agentic/orchestrator/, .checkpoints/ or .aop/";

testCheck(check, {
  ...DRIFT_CASES,
  valid: [
    { name: "a clean workspace", workspace: (f) => f.index({ active: ["a"] }).state("a"), ok: OK },
    { name: "public keys only", workspace: (f) => f.write("agentic/orchestrator/keys/abc.pub", publicPem), ok: OK },
    { name: "prose naming the armor is not a key", workspace: (f) => f.write("agentic/orchestrator/tools.md", "Never commit a `-----BEGIN PRIVATE KEY-----` file.\n-----BEGIN PRIVATE KEY-----\n...\n"), ok: OK },
    { name: "a key outside aop's folders is not searched", workspace: (f) => f.write("src/fixture.pem", pkcs8), ok: OK },
    { name: "a key past the first 64 KiB of a file is not read", workspace: (f) => f.write(".aop/big.log", "x".repeat(LIMITS.bytes) + pkcs8), ok: OK },
    {
      name: "follows no link, to a file or a folder, and never blocks on a FIFO",
      workspace: (f) => {
        const outside = tempDir("aop-outside-");
        fs.writeFileSync(path.join(outside, "id_rsa"), rsa);
        f.mkdir(".aop").mkdir("agentic/orchestrator");
        fs.symlinkSync(outside, path.join(f.layout.aopDir, "elsewhere"));
        fs.symlinkSync(path.join(outside, "id_rsa"), path.join(f.layout.orchestratorDir, "id_rsa"));
        expect(spawnSync("mkfifo", [path.join(f.layout.aopDir, "pipe.key")]).status).toBe(0);
        return f;
      },
      ok: OK,
    },
  ],
  invalid: [
    { name: "the key the attack put in the keys folder", workspace: (f) => f.write("agentic/orchestrator/keys/signing.key", pkcs8), findings: [{ message: /^1 file\(s\) in the workspace hold a private key: agentic\/orchestrator\/keys\/signing\.key \(PRIVATE KEY\)$/ }] },
    {
      name: "every PEM kind, in each of aop's folders",
      workspace: (f) => f.write(".aop/a.key", encrypted).write(".checkpoints/id_rsa", rsa).write("agentic/orchestrator/ec.pem", ec).write(".aop/runtime/deep/er/id_ed25519", openssh),
      findings: [{ message: /^4 file\(s\) in the workspace hold a private key: \.aop\/a\.key \(ENCRYPTED PRIVATE KEY\), \.aop\/runtime\/deep\/er\/id_ed25519 \(OPENSSH PRIVATE KEY\), \.checkpoints\/id_rsa \(RSA PRIVATE KEY\), agentic\/orchestrator\/ec\.pem \(EC PRIVATE KEY\)$/ }],
    },
    { name: "a key pasted into a JSON line (escaped newlines)", workspace: (f) => f.write(".aop/runtime/replay/r.timeline.jsonl", JSON.stringify({ arguments: { key: pkcs8 } }) + "\n"), findings: [{ message: /^1 file\(s\) in the workspace hold a private key: \.aop\/runtime\/replay\/r\.timeline\.jsonl \(PRIVATE KEY\)$/ }] },
  ],
  // Paths only, never key bytes.
  everyFinding: (finding) => {
    for (const pem of [pkcs8, encrypted, rsa, ec]) expect(JSON.stringify(finding)).not.toContain(body(pem));
  },
});

describe(`${check.id}: the search`, () => {
  it("is bounded: files searched, folder entries, depth; a search cut short says so (info)", () => {
    const dir = tempDir();
    for (let i = 0; i < 5; i++) fs.writeFileSync(path.join(dir, `f${i}`), "hello");
    fs.writeFileSync(path.join(dir, "z.key"), pkcs8);
    const all = findPrivateKeys([dir], { ...LIMITS, files: 6 });
    expect(all).toMatchObject({ files: 6, stopped: false, found: [{ file: path.join(dir, "z.key"), kind: "PRIVATE KEY" }] });
    const cut = findPrivateKeys([dir], { ...LIMITS, files: 3 });
    expect(cut).toMatchObject({ files: 3, stopped: true });
    fs.mkdirSync(path.join(dir, "a/b/c"), { recursive: true });
    fs.writeFileSync(path.join(dir, "a/b/c/deep.key"), pkcs8);
    expect(findPrivateKeys([dir], { ...LIMITS, depth: 2 }).found.map((x) => path.basename(x.file))).toEqual(["z.key"]);
    expect(findPrivateKeys([dir], { ...LIMITS, entries: 2 })).toMatchObject({ stopped: true });
  });

  it("stops when its time is up (SessionStart's share of the hook's second), and says so; aop doctor sets no time", async () => {
    const dir = tempDir();
    for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(dir, `f${String(i).padStart(3, "0")}`), "hello");
    fs.writeFileSync(path.join(dir, "z.key"), pkcs8);
    expect(findPrivateKeys([dir], { ...LIMITS, until: monotonicMs() - 1 })).toEqual({ found: [], files: 0, entries: 0, stopped: true });
    expect(findPrivateKeys([dir], { ...LIMITS, until: monotonicMs() + 60_000 })).toMatchObject({ files: 201, stopped: false, found: [{ kind: "PRIVATE KEY" }] });
    // Through the engine: the context's searchUntil reaches the check.
    const f = new DriftFixture().write("agentic/orchestrator/keys/signing.key", pkcs8);
    const late = await runDoctor({ layout: f.layout, clock: fixedClock(NOW), env: {}, families: DOCTOR_FAMILIES, searchUntil: monotonicMs() - 1 });
    expect(late.report.findings.filter((x) => x.id === check.id).map((x) => [x.severity, x.message])).toEqual([["info", expect.stringMatching(/^the search for private keys stopped after 0 files/)]]);
    const unbounded = await runDoctor({ layout: f.layout, clock: fixedClock(NOW), env: {}, families: DOCTOR_FAMILIES });
    expect(unbounded.report.findings.filter((x) => x.id === check.id).map((x) => x.severity)).toEqual(["critical"]);
  });

  it("a search cut short is an info finding of its own, beside what it found", async () => {
    // Breadth first: aop's folders' own files before anything deeper.
    const f = new DriftFixture().write("agentic/orchestrator/signing.key", pkcs8).write(".aop/a", "").write(".aop/b", "");
    const { findings } = await runCheck(privateKeyCheck({ ...LIMITS, files: 2 }), f, NOW);
    expect(findings.map((x) => [x.id, x.severity, x.message])).toEqual([
      [check.id, "critical", expect.stringMatching(/^1 file\(s\) in the workspace hold a private key: agentic\/orchestrator\/signing\.key/)],
      [check.id, "info", "the search for private keys stopped after 2 files and 3 folder entries in agentic/orchestrator/, .checkpoints/ and .aop/: the rest was not searched"],
    ]);
  });

  it("runs with the drift family: a key in the workspace makes the report not ok", async () => {
    const f = new DriftFixture().write("agentic/orchestrator/keys/signing.key", pkcs8);
    const { report } = await runDoctor({ layout: f.layout, clock: fixedClock(NOW), env: {}, families: DOCTOR_FAMILIES });
    expect(report.findings.filter((x) => x.id === check.id)).toEqual([expect.objectContaining({ severity: "critical", refs: ["agentic/orchestrator/keys/signing.key"] })]);
    expect(report.ok).toBe(false);
  });

  it("privateKeyKind: the armor followed by base64 (or legacy encryption headers)", () => {
    expect(privateKeyKind(pkcs8)).toBe("PRIVATE KEY");
    expect(privateKeyKind("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n")).toBe("RSA PRIVATE KEY");
    expect(privateKeyKind("-----BEGIN DSA PRIVATE KEY-----\r\nMIIBuwIBAAKBgQD0123456789\r\n")).toBe("DSA PRIVATE KEY");
    expect(privateKeyKind(publicPem)).toBeNull();
    expect(privateKeyKind("-----BEGIN PRIVATE KEY-----")).toBeNull();
    expect(privateKeyKind("-----BEGIN CERTIFICATE-----\nMIIBuwIBAAKBgQD0123456789\n")).toBeNull();
  });
});
