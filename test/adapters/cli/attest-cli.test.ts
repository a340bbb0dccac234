// Signed evidence through the built CLI: gate runs that attest (policy), attest on demand, anchor, prove,
// verify with attestations and anchors, and the private key never showing up anywhere.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { verifyInclusion } from "../../../src/domains/attest/merkle-verify.js";
import { leafHash } from "../../../src/domains/attest/merkle-tree.js";
import { allFiles, signedWorkspace } from "../../helpers/attest.js";
import { runCli } from "../../helpers/cli.js";
import { keyEnv } from "../../helpers/signing-key.js";
import { tempDir } from "../../helpers/tmp.js";

const EVIDENCE = ".aop/features/feat_a/evidence";

describe("gate runs with evidence_integrity.attest", () => {
  it("every run writes a DSSE in-toto attestation beside its evidence and reports it", () => {
    const ws = signedWorkspace();
    const run = ws.json<{ evidence_path: string; attestation: { path: string; keyid: string }; anchor: null }>(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.attestation).toEqual({ path: run.json.evidence_path.replace(/\.json$/, ".intoto.jsonl"), keyid: ws.key.keyid });
    expect(run.json.anchor).toBeNull();
    const envelope = JSON.parse(fs.readFileSync(ws.abs(run.json.attestation.path), "utf8"));
    const statement = JSON.parse(Buffer.from(envelope.payload, "base64").toString());
    expect(envelope.payloadType).toBe("application/vnd.in-toto+json");
    expect(statement.subject[0].name).toBe(run.json.evidence_path);
    expect(statement.subject).toHaveLength(3); // the evidence and two step logs
    expect(statement.predicate.configuration.map((c: { name: string }) => c.name)).toEqual(["agentic/orchestrator/gates.yaml", "agentic/orchestrator/policy.yaml"]);
    const human = ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    expect(human.stdout).toMatch(/^attested {2}\.aop\/features\/feat_a\/evidence\/gate-fast-\d+\.intoto\.jsonl/m);
  });

  it("without a usable key the run fails before any step runs", () => {
    const ws = signedWorkspace();
    const r = runCli(["--root", ws.root, "gates", "run", "--feature-id", "feat_a", "--mode", "fast"], { env: keyEnv() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error signing_key_missing: /);
    expect(fs.existsSync(ws.abs(".aop/features/feat_a/logs"))).toBe(false);
    expect(fs.existsSync(ws.abs(EVIDENCE))).toBe(false);
  });

  it("anchor_after_gate signs a checkpoint after every chained run", () => {
    const ws = signedWorkspace({ policy: { anchor_after_gate: true } });
    for (let i = 1; i <= 3; i++) {
      const run = ws.json<{ anchor: { tree_size: number; path: string } }>(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
      expect(run.json.anchor).toMatchObject({ tree_size: i, path: `${EVIDENCE}/anchors.jsonl` });
    }
    const verify = ws.json<{ valid: boolean; anchors: { tree_size: number; valid: boolean }[] }>(["evidence", "verify", "--feature-id", "feat_a"]);
    expect(verify.json).toMatchObject({ valid: true, anchors: [{ tree_size: 3, valid: true }] });
  });
});

describe("aop evidence attest / anchor / prove / verify", () => {
  it("attest on demand refuses evidence edited after it was chained", () => {
    const ws = signedWorkspace({ policy: { attest: false } });
    const run = ws.json<{ evidence_path: string }>(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]).json;
    fs.appendFileSync(ws.abs(run.evidence_path), " ");
    const r = ws.cli(["evidence", "attest", "--feature-id", "feat_a", "--gate", path.basename(run.evidence_path)]);
    expect(r.stderr).toMatch(/^error evidence_chain_hash_mismatch: .*was modified after it was chained; it was not attested/);
    expect(fs.readdirSync(ws.abs(EVIDENCE)).some((n) => n.endsWith(".intoto.jsonl"))).toBe(false);
  });

  it("attest --gate refuses a path outside the feature's evidence", () => {
    const ws = signedWorkspace({ policy: { attest: false } });
    ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    const r = ws.cli(["evidence", "attest", "--feature-id", "feat_a", "--gate", "../../etc/gate-fast-1.json"]);
    expect(r.stderr).toMatch(/^error invalid_argument: gate must name a gate-<mode>-<epoch_ms>\.json of feature 'feat_a'/);
  });

  it("prove prints a C2SP tlog proof whose path leads from the chain line to the signed root", () => {
    const ws = signedWorkspace({ policy: { attest: false } });
    for (let i = 0; i < 5; i++) ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    const anchored = ws.json<{ root: string; note: string }>(["evidence", "anchor", "--feature-id", "feat_a"]).json;
    const proof = ws.cli(["evidence", "prove", "--feature-id", "feat_a", "--sequence", "3"]);
    expect(proof.code, proof.stderr).toBe(0);
    const [header, index, ...rest] = proof.stdout.split("\n");
    expect([header, index]).toEqual(["c2sp.org/tlog-proof@v1", "index 3"]);
    const hashes = rest.slice(0, rest.indexOf(""));
    expect(proof.stdout.endsWith(anchored.note)).toBe(true);
    const line = fs.readFileSync(ws.abs(`${EVIDENCE}/chain.jsonl`), "utf8").split("\n")[3]!;
    expect(verifyInclusion(3, 5, leafHash(Buffer.from(line)), hashes.map((h) => Buffer.from(h, "base64")), Buffer.from(anchored.root, "base64"))).toBe(true);
    const bad = ws.cli(["evidence", "prove", "--feature-id", "feat_a", "--sequence", "9"]);
    expect(bad.stderr).toMatch(/^error invalid_argument: the chain of 'feat_a' has 5 entries/);
  });

  it("prove without an anchor says the root is unsigned (stderr) and prints the path (stdout)", () => {
    const ws = signedWorkspace({ policy: { attest: false } });
    ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    const r = ws.cli(["evidence", "prove", "--feature-id", "feat_a", "--sequence", "1"]);
    expect(r.stderr).toMatch(/no anchor covers entry 1 yet/);
    expect(r.stdout).toMatch(/^index 1\n[A-Za-z0-9+/]{43}=\ntree_size 2\nroot [A-Za-z0-9+/]{43}=\n$/);
  });

  it("verify shows attestations and the anchor, and names the rewrite; --anchor checks a copy kept elsewhere", () => {
    const ws = signedWorkspace();
    ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    const note = ws.json<{ note: string }>(["evidence", "anchor", "--feature-id", "feat_a"]).json.note;
    const ok = ws.cli(["evidence", "verify", "--feature-id", "feat_a"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^✓ feat_a {2}valid {2}2 entries/);
    expect(ok.stdout).toMatch(/^ {4}attestations {2}2 valid files$/m);
    expect(ok.stdout).toMatch(/^ {4}anchor {8}✓ \.aop\/features\/feat_a\/evidence\/anchors\.jsonl:1 {2}2 entries {2}root /m);
    const kept = path.join(tempDir(), "feat_a.note");
    fs.writeFileSync(kept, note);
    // Truncate the chain to one entry, manifest and latest copy made consistent, anchors.jsonl removed.
    const lines = fs.readFileSync(ws.abs(`${EVIDENCE}/chain.jsonl`), "utf8").split("\n");
    const first = JSON.parse(lines[0]!);
    fs.writeFileSync(ws.abs(`${EVIDENCE}/chain.jsonl`), lines[0] + "\n");
    fs.writeFileSync(ws.abs(`${EVIDENCE}/manifest.integrity.json`), JSON.stringify({ entry_count: 1, head_hash: first.chain_hash, last_verified_at: null, last_verified_result: null }));
    fs.copyFileSync(ws.abs(first.artifact_rel_path), ws.abs(`${EVIDENCE}/latest-fast.json`));
    fs.rmSync(ws.abs(`${EVIDENCE}/anchors.jsonl`));
    expect(ws.cli(["evidence", "verify", "--feature-id", "feat_a"]).code).toBe(0);
    const caught = ws.cli(["evidence", "verify", "--feature-id", "feat_a", "--anchor", kept]);
    expect(caught.code).toBe(1);
    expect(caught.stdout).toMatch(/^✗ feat_a {2}INVALID {2}1 entry {2}sequence 1 {2}evidence_chain_anchor_mismatch/);
    expect(caught.stdout).toMatch(/anchor {8}✗ argument {2}2 entries .*evidence_chain_anchor_mismatch/);
  });
});

describe("the private key stays private", () => {
  it("its contents appear in no output, log, evidence or git object of a full session", () => {
    const ws = signedWorkspace({ policy: { anchor_after_gate: true } });
    fs.renameSync(ws.abs(".git"), ws.abs(".git-marker"));
    runCli(["init"], { cwd: ws.root });
    spawnSync("git", ["init", "-q"], { cwd: ws.root });
    const gitEnv = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
    const outputs: string[] = [];
    const cli = (args: string[], env: Record<string, string | undefined> = {}) => {
      const r = runCli(["--root", ws.root, ...args], { env: { ...ws.env, ...gitEnv, ...env } });
      outputs.push(r.stdout, r.stderr);
      return r;
    };
    cli(["keys", "init"]);
    cli(["keys", "list"]);
    cli(["keys", "list", "--json"]);
    cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast", "--json"]);
    cli(["evidence", "attest", "--feature-id", "feat_a", "--bundle", "--json"]);
    cli(["evidence", "anchor", "--feature-id", "feat_a", "--git", "--json"]);
    cli(["evidence", "verify", "--feature-id", "feat_a", "--json"]);
    cli(["evidence", "prove", "--feature-id", "feat_a", "--sequence", "0"]);
    cli(["doctor", "--json"]);
    fs.chmodSync(ws.key.file, 0o640);
    cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"], { AOP_DEBUG: "1" });
    fs.chmodSync(ws.key.file, 0o600);
    expect(fs.statSync(ws.key.file).mode & 0o777).toBe(0o600);
    const body = ws.key.privatePem.split("\n").slice(1, -2).join("");
    const seed = Buffer.from(body, "base64").subarray(-32);
    const needles = [body.slice(0, 40), body.slice(-40), seed.toString("hex"), seed.toString("base64").slice(0, 40)];
    const haystacks = [...outputs, ...allFiles(ws.root).map((f) => fs.readFileSync(f).toString("latin1"))];
    for (const needle of needles) for (const text of haystacks) expect(text.includes(needle)).toBe(false);
    expect(outputs.join("")).toMatch(/signing_key_insecure/);
  });
});
