// `aop replay --run-id …` runs from a one-file bundle of the compiled modules (scripts/bundle-bins.mjs)
// through the same pipeline as the commander program. Every route must print the same bytes, exit with
// the same code and record the query in the current run the same way.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseFastReplay } from "../../../src/adapters/cli/replay-fast-path.js";
import { runCli, type CliResult } from "../../helpers/cli.js";
import { distUrl, REPO_ROOT } from "../../helpers/paths.js";
import { tempWorkspace } from "../../helpers/tmp.js";
import { packageCopy } from "../../helpers/package-copy.js";

const BUNDLE = path.join("dist", "replay-cli", "fast-path.bundle.cjs");
const NOW = "2026-03-01T10:00:00.000Z";
const RUN = "run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a";

describe("parseFastReplay", () => {
  it.each([
    [["replay", "--run-id", "r"], { runId: "r" }],
    [["--root", "/w", "replay", "--run-id=r", "--json"], { root: "/w", runId: "r", json: true }],
    [["replay", "--run-id", "r", "--from-sequence", "49900", "--limit=100", "--to-sequence", "0"], { runId: "r", fromSequence: 49900, limit: 100, toSequence: 0 }],
    [["replay", "--run-id", "r", "--feature-id", "f", "--tool", "feature.get", "--result", "error", "--idempotency", "new", "--actor", "qa", "--session-id", "s", "--transport", "inprocess"], { runId: "r", featureId: "f", tool: "feature.get", result: "error", idempotency: "new", actor: "qa", sessionId: "s", transport: "inprocess" }],
  ])("takes %j", (argv, opts) => {
    expect(parseFastReplay(argv)).toEqual(opts);
  });

  it.each([
    [["replay"]],
    [["replay", "--list"]],
    [["replay", "--run-id", "r", "--follow"]],
    [["replay", "--run-id", "r", "--help"]],
    [["replay", "--run-id", "r", "--transport", "mcp"]],
    [["replay", "--run-id", "r", "--limit", "-1"]],
    [["replay", "--run-id", "r", "--limit", "1e3"]],
    [["replay", "--run-id", "r", "--from-sequence"]],
    [["replay", "--run-id", "--json"]],
    [["replay", "--run-id", "r", "extra"]],
    [["feature", "list", "--run-id", "r"]],
    [["replay", "replay", "--run-id", "r"]],
  ])("leaves %j to the full program", (argv) => {
    expect(parseFastReplay(argv)).toBeNull();
  });
});

/** A copy of the built package without the replay bundle: bin/aop.js falls back to the modular build. */
function withoutBundle(): string {
  return path.join(packageCopy((pkg) => fs.rmSync(path.join(pkg, BUNDLE))), "bin", "aop.js");
}

/** The commander program itself (dist/adapters/cli/main.js), never a fast route. */
function runProgram(args: string[], env: Record<string, string | undefined>, cwd: string): CliResult {
  const code = `const { main } = await import(${JSON.stringify(distUrl("adapters/cli/main.js"))}); await main(process.argv.slice(1));`;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", ...env };
  for (const key of ["AOP_ROOT", "AOP_RUN_ID", "AOP_SESSION_ID", "AOP_ACTOR", "FORCE_COLOR"]) if (!(key in env)) delete childEnv[key];
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code, ...args], { cwd, env: childEnv, encoding: "utf8" });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A workspace holding an upstream-shaped run (five-field meta) of 2,000 entries. */
function workspace(): string {
  const root = tempWorkspace();
  const replay = path.join(root, ".aop", "runtime", "replay");
  fs.mkdirSync(replay, { recursive: true });
  const lines = Array.from({ length: 2000 }, (_, i) =>
    JSON.stringify({ ts: new Date(Date.UTC(2026, 1, 1) + i * 7).toISOString(), sequence: i, run_id: RUN, session_id: "orchestrator-global-1", actor_type: "orchestrator", feature_id: i % 3 ? "hello" : null, tool_name: i % 2 ? "feature.state_get" : "feature.log_append", mutating: i % 2 === 0, operation_id: i % 2 ? null : `op-${i}-abcdef`, idempotency_status: i % 2 ? "none" : "new", request_hash: i % 2 ? null : "e1".repeat(32), result: i % 11 ? "ok" : "error", error_code: i % 11 ? null : "forbidden_tool_for_role", latency_ms: i % 5 }),
  );
  fs.writeFileSync(path.join(replay, `${RUN}.timeline.jsonl`), lines.join("\n") + "\n");
  fs.writeFileSync(path.join(replay, `${RUN}.meta.json`), JSON.stringify({ run_id: RUN, sequence_head: 1999, entry_count: 2000, started_at: "2026-02-01T00:00:00.090Z", last_entry_at: "2026-02-01T00:00:14.300Z" }, null, 2));
  return root;
}

const QUERIES: [string, string[]][] = [
  ["a page at 1900, JSON", ["--from-sequence", "1900", "--limit", "100", "--json"]],
  ["the first page, human", []],
  ["a filtered page with a next-page hint", ["--result", "error", "--limit", "5"]],
  ["a range", ["--from-sequence", "10", "--to-sequence", "14", "--json"]],
  ["an invalid filter value (schema error, exit 1)", ["--result", "sometimes", "--json"]],
  ["an invalid filter value, human", ["--idempotency", "maybe"]],
];

describe("aop replay --run-id: the bundled route prints exactly what the other routes print", () => {
  let modular: string;
  beforeAll(() => {
    if (!fs.existsSync(path.join(REPO_ROOT, BUNDLE))) throw new Error(`${BUNDLE} is missing: run \`node scripts/build.mjs\` first`);
    modular = withoutBundle();
  });

  it.each(QUERIES)("%s", (_name, flags) => {
    for (const env of [{ AOP_NOW: NOW }, { AOP_NOW: NOW, NO_COLOR: undefined, FORCE_COLOR: "1" }]) {
      const results: [string, CliResult, string][] = [];
      for (const [route, run] of [
        ["bundle", (args: string[], root: string) => runCli(args, { env, cwd: root })],
        ["modular build", (args: string[], root: string) => runCli(args, { env, cwd: root, bin: modular })],
        ["commander program", (args: string[], root: string) => runProgram(args, env, root)],
      ] as const) {
        const root = workspace();
        const result = run(["replay", "--run-id", RUN, ...flags], root);
        const recorded = fs.readFileSync(path.join(root, ".aop", "runtime", "replay", "adhoc-2026-03-01.timeline.jsonl"), "utf8");
        results.push([route, result, recorded.replace(/"latency_ms":[\d.]+/, '"latency_ms":0')]);
      }
      const [, expected, expectedRecord] = results[0]!;
      if (expected.code === 0) expect(expected.stderr).toBe("");
      else expect(expected.stdout + expected.stderr).toMatch(/invalid_argument/);
      for (const [route, result, recorded] of results) {
        expect(result, route).toEqual(expected);
        expect(recorded, route).toBe(expectedRecord);
      }
    }
  });

  it("a missing run: the same error through every route", () => {
    const root = workspace();
    const bundled = runCli(["replay", "--run-id", "run:nope", "--json"], { cwd: root });
    expect(bundled.code).toBe(1);
    expect(JSON.parse(bundled.stdout)).toMatchObject({ ok: false, error: { code: "replay_run_not_found" } });
    expect(runCli(["replay", "--run-id", "run:nope", "--json"], { cwd: root, bin: modular })).toEqual(bundled);
    expect(runProgram(["replay", "--run-id", "run:nope", "--json"], {}, root)).toEqual(bundled);
    expect(runCli(["replay", "--run-id", "run:nope"], { cwd: root }).stderr).toBe(runProgram(["replay", "--run-id", "run:nope"], {}, root).stderr);
  });

  it.each([
    ["a policy that narrows RBAC: forbidden_tool_for_role, recorded", "rbac:\n  orchestrator: [feature.get]\n", 1],
    ["a policy that keeps the timeline off: the query works and nothing is recorded", "observability:\n  replay:\n    enabled: false\n", 0],
    ["a policy that is not valid YAML: config_invalid", "rbac: [\n", 1],
  ])("reads the user's policy.yaml like the full program: %s", (_name, policy, code) => {
    const results: [string, CliResult, boolean][] = [];
    for (const [route, run] of [
      ["bundle", (args: string[], root: string) => runCli(args, { cwd: root, env: { AOP_NOW: NOW } })],
      ["commander program", (args: string[], root: string) => runProgram(args, { AOP_NOW: NOW }, root)],
    ] as const) {
      const root = workspace();
      fs.mkdirSync(path.join(root, "agentic", "orchestrator"), { recursive: true });
      fs.writeFileSync(path.join(root, "agentic", "orchestrator", "policy.yaml"), policy);
      results.push([route, run(["replay", "--run-id", RUN, "--limit", "3", "--json"], root), fs.existsSync(path.join(root, ".aop", "runtime", "replay", "adhoc-2026-03-01.timeline.jsonl"))]);
    }
    expect(results[0]![1].code).toBe(code);
    expect(results[1]![1]).toEqual(results[0]![1]);
    expect(results[1]![2]).toBe(results[0]![2]);
  });
});
