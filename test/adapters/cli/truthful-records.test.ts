// Black-box, on a workspace made by `aop init` as a new user would: a failed gate is recorded as a failure,
// a tampered chain fails `aop doctor --strict` and says how to repair it, and `aop evidence reset-chain`
// starts over while keeping the old chain (docs/replay.md "Negative verdicts", docs/evidence.md).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runJson } from "../../helpers/cli.js";
import { tempWorkspace } from "../../helpers/tmp.js";
import { validateAgainst } from "../../../src/catalog/load-validator.js";

const BROKEN_MODE = `      broken:
        - name: exits-3
          cmd: [node, -e, "process.exit(3)"]
`;

/** `aop init`, one feature, and a gate mode whose step exits 3. */
function initWorkspace(): string {
  const root = tempWorkspace();
  expect(runCli(["init"], { cwd: root }).code).toBe(0);
  fs.appendFileSync(path.join(root, "agentic", "orchestrator", "gates.yaml"), BROKEN_MODE);
  expect(runCli(["feature", "init", "feat_login", "--title", "Login"], { cwd: root }).code).toBe(0);
  return root;
}

interface Finding {
  id: string;
  severity: string;
  message: string;
  remediation: string;
}

describe("records that tell the truth, on an `aop init` workspace", () => {
  it("aop init writes the recommended policy: integrity on, and --strict fails on warnings", () => {
    const root = initWorkspace();
    const policy = fs.readFileSync(path.join(root, "agentic", "orchestrator", "policy.yaml"), "utf8");
    expect(policy).toMatch(/evidence_integrity:\n\s+enabled: true/);
    expect(policy).toMatch(/tamper_evident_evidence: true/);
    expect(policy).toMatch(/strict_fails_on: warning/);
  });

  it("a failed gate whose evidence is edited: verify INVALID with a fix, doctor --strict fails, DRIFT_007 names the repair", () => {
    const root = initWorkspace();
    const gate = runCli(["gates", "run", "--feature-id", "feat_login", "--mode", "broken"], { cwd: root });
    expect(gate.code).toBe(1);
    expect(gate.stdout).toMatch(/FAIL {2}0 passed, 1 failed/);
    const evidence = /evidence {2}(\S+)/.exec(gate.stdout)![1]!;
    expect(runCli(["doctor", "--strict"], { cwd: root }).code).toBe(0);

    const file = path.join(root, evidence);
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('"overall": "fail"', '"overall": "pass"'));
    const verify = runCli(["evidence", "verify", "--feature-id", "feat_login"], { cwd: root });
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(/INVALID .* evidence_chain_hash_mismatch/);
    expect(verify.stdout).toContain(`fix: restore ${evidence} from git`);

    const strict = runCli(["doctor", "--strict"], { cwd: root });
    expect(strict.code).toBe(1);
    const report = runJson<{ findings: Finding[] }>(["doctor"], { cwd: root }).json;
    const drift007 = report.findings.find((f) => f.id === "DRIFT_007_EVIDENCE_CHAIN_INVALID")!;
    expect(drift007.severity).toBe("warning");
    expect(drift007.remediation).toMatch(new RegExp(`^restore ${evidence.replace(/\./g, "\\.")} from git .*aop evidence reset-chain --feature-id feat_login`));
    expect(drift007.remediation).not.toMatch(/re-run/);
    expect(report.findings.map((f) => f.id)).not.toContain("DRIFT_011_EVIDENCE_INTEGRITY_OFF");
  });

  it("reset-chain keeps the old chain and the files it covered, records why, and the workspace is healthy again", async () => {
    const root = initWorkspace();
    runCli(["gates", "run", "--feature-id", "feat_login", "--mode", "broken"], { cwd: root });
    const evidenceDir = path.join(root, ".aop", "features", "feat_login", "evidence");
    const gateFile = fs.readdirSync(evidenceDir).find((n) => n.startsWith("gate-broken-"))!;
    fs.appendFileSync(path.join(evidenceDir, gateFile), " ");
    const oldChain = fs.readFileSync(path.join(evidenceDir, "chain.jsonl"), "utf8");

    const refused = runJson<{ error: { code: string } }>(["evidence", "reset-chain", "--feature-id", "feat_login", "--reason", "   "], { cwd: root });
    expect(refused).toMatchObject({ code: 1, json: { error: { code: "invalid_argument" } } });

    const reset = runJson<Record<string, unknown> & { archive: string; archived_files: string[] }>(
      ["evidence", "reset-chain", "--feature-id", "feat_login", "--reason", "edited by hand; no trusted copy", "--operation-id", "op-reset-chain-1"],
      { cwd: root },
    );
    expect(reset.code, reset.stderr).toBe(0);
    expect(await validateAgainst("output/evidence.reset_chain", reset.json)).toEqual([]);
    expect(reset.json).toMatchObject({ feature_id: "feat_login", reason: "edited by hand; no trusted copy", previous: { valid: false, entry_count: 1, failure_code: "evidence_chain_hash_mismatch" }, operation_id: "op-reset-chain-1" });
    const archive = path.join(root, reset.json.archive);
    expect(fs.readFileSync(path.join(archive, "chain.jsonl"), "utf8")).toBe(oldChain);
    expect(fs.existsSync(path.join(archive, gateFile))).toBe(true);
    expect(fs.existsSync(path.join(evidenceDir, gateFile))).toBe(false);
    const records = fs.readFileSync(path.join(evidenceDir, "resets.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toEqual([reset.json]);

    // The same operation id replays the recorded answer and moves nothing more.
    const again = runJson<Record<string, unknown>>(["evidence", "reset-chain", "--feature-id", "feat_login", "--reason", "edited by hand; no trusted copy", "--operation-id", "op-reset-chain-1"], { cwd: root });
    expect(again.json).toEqual(reset.json);
    expect(fs.readFileSync(path.join(evidenceDir, "resets.jsonl"), "utf8").trim().split("\n")).toHaveLength(1);

    expect(runCli(["evidence", "verify", "--feature-id", "feat_login"], { cwd: root }).code).toBe(0);
    expect(runCli(["gates", "run", "--feature-id", "feat_login", "--mode", "fast"], { cwd: root }).code).toBe(0);
    expect(runCli(["evidence", "verify", "--feature-id", "feat_login"], { cwd: root }).stdout).toMatch(/valid {2}1 entry/);
    const strict = runCli(["doctor", "--strict"], { cwd: root });
    expect(strict.code, strict.stdout).toBe(0);
  });

  it("reset-chain refuses a feature without a chain, and a role that may not reset", () => {
    const root = initWorkspace();
    const none = runJson<{ error: { code: string } }>(["evidence", "reset-chain", "--feature-id", "feat_login", "--reason", "x"], { cwd: root });
    expect(none).toMatchObject({ code: 1, json: { error: { code: "evidence_chain_missing" } } });
    runCli(["gates", "run", "--feature-id", "feat_login", "--mode", "fast"], { cwd: root });
    const qa = runJson<{ error: { code: string } }>(["evidence", "reset-chain", "--feature-id", "feat_login", "--reason", "x", "--actor", "qa"], { cwd: root });
    expect(qa).toMatchObject({ code: 1, json: { error: { code: "forbidden_tool_for_role" } } });
    const traversal = runJson<{ error: { code: string } }>(["evidence", "reset-chain", "--feature-id", "../etc", "--reason", "x"], { cwd: root });
    expect(traversal).toMatchObject({ code: 1, json: { error: { code: "invalid_argument" } } });
  });
});
