// The continuity doctor over several workspaces: --workspace repeated, --all-agents on a fake
// OpenClaw home, the JSON report's shape, and configs it cannot read.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { CONTINUITY_DOCTOR_BIN } from "../../helpers/paths.js";
import { tempDir, writeFile } from "../../helpers/tmp.js";
import { cliEnv, HOUR, makeWorkspace, MINUTE, setAge, stateMarkdown } from "../../domains/doctor/fixtures.js";

const bin = (args: string[], env: Record<string, string | undefined>) => runCli(args, { bin: CONTINUITY_DOCTOR_BIN, env });
const json = (args: string[], env: Record<string, string | undefined>) => {
  const r = bin([...args, "--json"], env);
  return { code: r.code, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
};

interface Report {
  ok: boolean;
  exit_code: number;
  summary: { critical: number; warning: number; info: number };
  problems: { id: string; severity: string; message: string }[];
  workspaces: { workspace: string; agent_id: string | null; exit_code: number; summary: object; findings: { id: string; severity: string; message: string; remediation: string; refs: string[] }[]; passed: { id: string; message: string }[] }[];
  skipped: { workspace: string; agent_id: string | null; reason: string }[];
}

describe("continuity doctor: several workspaces", () => {
  it("one block per workspace with a header, a summary line, and the exit code of the worst", () => {
    const healthy = makeWorkspace();
    const warned = makeWorkspace({ state: stateMarkdown({ Blockers: null }) });
    const missing = path.join(healthy.root, "..", "gone");
    const r = bin(["--workspace", healthy.root, "--workspace", warned.root, "--workspace", missing], cliEnv(healthy));
    const blocks = r.stdout.trimEnd().split("\n\n");
    expect(blocks.map((b) => b.split("\n")[0])).toEqual([`== ${healthy.root} ==`, `== ${warned.root} ==`, `== ${path.resolve(missing)} ==`, "3 workspaces: 1 critical · 1 with warnings · 1 healthy"]);
    expect(blocks[1]).toContain("[WARNING]  Missing section: ## Blockers");
    expect(blocks[2]!.split("\n")[1]).toBe(`[CRITICAL] workspace does not exist: ${path.resolve(missing)} (from --workspace)`);
    expect(r.code).toBe(2);
    expect(bin(["--workspace", healthy.root, "--workspace", warned.root], cliEnv(healthy)).code).toBe(1);
  });

  it("the JSON report: a stable shape whose exit_code is the process's", () => {
    const ws = makeWorkspace({ stateAgeMs: 30 * HOUR });
    const { code, report } = json(["--workspace", ws.root, "--workspace", ws.root], cliEnv(ws));
    expect(Object.keys(report)).toEqual(["ok", "exit_code", "summary", "problems", "workspaces", "skipped"]);
    expect(report).toMatchObject({ ok: false, exit_code: 1, summary: { critical: 0, warning: 1, info: 0 }, problems: [], skipped: [] });
    expect(report.workspaces).toHaveLength(1); // the same folder twice is checked once
    const [only] = report.workspaces;
    expect(Object.keys(only!)).toEqual(["workspace", "agent_id", "exit_code", "summary", "findings", "passed"]);
    expect(only!.findings).toEqual([
      { id: "CONT_002_STATE_FILE_STALE", severity: "warning", message: expect.stringMatching(/^CURRENT_STATE\.md is stale/), remediation: expect.any(String), refs: ["memory/CURRENT_STATE.md"] },
    ]);
    expect(only!.passed.map((p) => p.id)).toContain("CONT_001_STATE_FILE_MISSING");
    expect(code).toBe(report.exit_code);
  });

  it("--all-agents: every workspace in a fake OpenClaw home, each against its own agent's sessions", () => {
    const base = tempDir("aop-claw-");
    const home = path.join(base, "home");
    const state = path.join(base, "state");
    const main = makeWorkspace({ stateAgeMs: 2 * HOUR }); // main's session ran after its last update
    const ops = makeWorkspace({ stateAgeMs: 1 * HOUR }); // ops' own session is older: fine
    fs.cpSync(main.root, path.join(home, "claw", "main"), { recursive: true, preserveTimestamps: true });
    writeFile(
      state,
      "openclaw.json",
      `// JSON5, as OpenClaw writes it
      {
        agents: {
          defaults: { workspace: "~/claw/main" },
          list: [
            { id: "main", default: true, workspace: "~/claw/main" },
            { id: "ops", workspace: "${ops.root}" },
            { id: "work", workspace: "${path.join(base, "never-created")}" },
            { id: "helper" }, // no workspace: <defaults.workspace>/helper, never created
          ],
        },
      }`,
    );
    setAge(writeFile(state, "agents/main/sessions/m.jsonl", "{}\n"), 30 * MINUTE);
    setAge(writeFile(state, "agents/ops/sessions/o.jsonl", "{}\n"), 3 * HOUR);
    setAge(writeFile(state, "agents/work/sessions/w.jsonl", "{}\n"), 1 * MINUTE); // newer than ops' state, but not ops' session

    const { code, report } = json(["--all-agents"], cliEnv({ home }, { OPENCLAW_STATE_DIR: state }));
    const byAgent: Record<string, Report["workspaces"][number]> = Object.fromEntries(report.workspaces.map((w) => [w.agent_id, w]));
    expect(Object.keys(byAgent)).toEqual(["main", "ops", "work"]);
    expect(byAgent.main!.workspace).toBe(path.join(home, "claw", "main"));
    expect(byAgent.main!.findings.map((f) => f.message)).toEqual(["CURRENT_STATE.md is stale (last modified 2h ago, session ran 30m ago)"]);
    expect(byAgent.ops!.findings).toEqual([]);
    expect(byAgent.work!.findings.map((f) => [f.id, f.severity])).toEqual([["CONT_WORKSPACE_MISSING", "critical"]]);
    expect(byAgent.work!.findings[0]!.message).toMatch(/never-created \(from agents\.list\[2\]\.workspace\)$/);
    expect(report.skipped).toEqual([{ workspace: path.join(home, "claw", "main", "helper"), agent_id: "helper", reason: expect.stringMatching(/^not created yet/) }]);
    expect(code).toBe(2);
  });

  it("--all-agents without OPENCLAW_STATE_DIR reads ~/.openclaw, and without a config checks ~/.openclaw/workspace", () => {
    const ws = makeWorkspace({ state: stateMarkdown({ "Unsurfaced Results": "the nightly build failed" }) });
    fs.cpSync(ws.root, path.join(ws.home, ".openclaw", "workspace"), { recursive: true });
    const r = bin(["--all-agents"], cliEnv(ws));
    expect(r.stdout.split("\n")[0]).toMatch(/^\[WARNING\] {2}Unsurfaced Results section is not empty/);
    expect(r.code).toBe(1);
  });

  it("--all-agents with an unparseable openclaw.json: a critical finding naming the file and position, no stack trace", () => {
    const ws = makeWorkspace();
    writeFile(ws.home, ".openclaw/openclaw.json", "{ agents: { list: [ { id: 'main' ");
    const r = bin(["--all-agents"], cliEnv(ws));
    expect(r.stdout.split("\n")[0]).toMatch(/^\[CRITICAL\] .*\/\.openclaw\/openclaw\.json: is not valid JSON5: .* at 1:\d+$/);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(2);
    const { report } = json(["--all-agents"], cliEnv(ws));
    expect(report.problems.map((p) => p.id)).toEqual(["CONT_OPENCLAW_CONFIG_INVALID"]);
  });

  it("--all-agents with no OpenClaw installation at all is a critical finding", () => {
    const ws = makeWorkspace();
    const { code, report } = json(["--all-agents"], cliEnv(ws));
    expect(report.problems).toEqual([expect.objectContaining({ id: "CONT_WORKSPACE_MISSING", severity: "critical", message: expect.stringMatching(/^no OpenClaw workspace found/) })]);
    expect(code).toBe(2);
  });

  it("--all-agents and --workspace together check both", () => {
    const ws = makeWorkspace();
    const claw = makeWorkspace();
    fs.cpSync(claw.root, path.join(ws.home, ".openclaw", "workspace"), { recursive: true });
    const { report } = json(["--all-agents", "--workspace", ws.root], cliEnv(ws));
    expect(report.workspaces.map((w) => w.workspace)).toEqual([ws.root, path.join(ws.home, ".openclaw", "workspace")]);
  });

  it("many workspaces: no progress noise on a non-terminal stderr", () => {
    const spaces = Array.from({ length: 6 }, () => makeWorkspace());
    const r = bin(spaces.flatMap((w) => ["--workspace", w.root]), cliEnv(spaces[0]!));
    expect(r.stderr).toBe("");
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("6 workspaces: 0 critical · 0 with warnings · 6 healthy");
    expect(r.code).toBe(0);
  });
});
