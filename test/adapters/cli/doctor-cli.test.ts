// `aop doctor`: every family's checks through the doctor.run tool, the report printed (or --json), exit codes by --strict.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { tempWorkspace } from "../../helpers/tmp.js";

const NOW = "2026-03-01T10:00:00.000Z";

/** A workspace with findings of several families: a timeline with a repeated sequence and unreadable lines, a broken checkpoint. */
function workspace(): string {
  const root = tempWorkspace();
  const replay = path.join(root, ".aop", "runtime", "replay");
  fs.mkdirSync(replay, { recursive: true });
  const lines = Array.from({ length: 300 }, (_, i) => JSON.stringify({ ts: new Date(Date.UTC(2026, 1, 1) + i).toISOString(), sequence: i === 200 ? 150 : i, run_id: "r1", session_id: null, actor_type: "orchestrator", feature_id: null, tool_name: "feature.get", mutating: false, operation_id: null, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 1 }));
  fs.writeFileSync(path.join(replay, "r1.timeline.jsonl"), [...lines.slice(0, 10), "not json", '{"sequ\\u0065nce":3,"tool_name":"x"}', ...lines.slice(10)].join("\n") + '\n{"torn":');
  fs.mkdirSync(path.join(root, ".checkpoints"), { recursive: true });
  fs.writeFileSync(path.join(root, ".checkpoints", "broken.checkpoint.json"), "{ not json");
  return root;
}

const doctor = (flags: string[]) => runCli(["doctor", ...flags], { cwd: workspace(), env: { AOP_NOW: NOW } });

describe("aop doctor", () => {
  it("--json prints the report; findings of several families; exit 0 without --strict", () => {
    const r = doctor(["--json"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { findings: { id: string }[] };
    expect(report.findings.some((f) => f.id.startsWith("DRIFT_006"))).toBe(true);
    expect(report.findings.some((f) => f.id.startsWith("CKPT_"))).toBe(true);
  });

  it("for people: the findings, then where the report was written", () => {
    const r = doctor([]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toMatch(/DRIFT_006/);
    expect(r.stdout).toMatch(/report: \.aop\/runtime\/doctor\/last_report\.json\n$/);
  });

  it("--only runs one family; --strict exits 2 on a critical finding, which it is not without --strict", () => {
    const drift = doctor(["--json", "--only", "drift"]);
    const report = JSON.parse(drift.stdout) as { findings: { id: string }[] };
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.findings.every((f) => f.id.startsWith("DRIFT_"))).toBe(true);
    const root = workspace();
    fs.mkdirSync(path.join(root, "agentic", "orchestrator"), { recursive: true });
    fs.writeFileSync(path.join(root, "agentic", "orchestrator", "policy.yaml"), "rbac: [\n");
    expect(runCli(["doctor", "--strict"], { cwd: root }).code).toBe(2);
    expect(runCli(["doctor"], { cwd: root }).code).toBe(0);
  });

  it("an unknown --only family is a usage error (exit 2), as an envelope with --json", () => {
    const human = doctor(["--only", "nope"]);
    expect(human).toMatchObject({ code: 2, stdout: "", stderr: expect.stringMatching(/^error usage_error: --only must be one of /) });
    const json = doctor(["--only", "nope", "--json"]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: "usage_error" } });
  });
});
