// `aop doctor` runs from a one-file bundle of the compiled modules (scripts/bundle-bins.mjs) through the
// same pipeline as the commander program. Every route must print the same bytes and exit the same way.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseFastDoctor } from "../../../src/adapters/cli/doctor-fast-path.js";
import { runCli, type CliResult } from "../../helpers/cli.js";
import { distUrl, REPO_ROOT } from "../../helpers/paths.js";
import { tempWorkspace } from "../../helpers/tmp.js";
import { packageCopy } from "../../helpers/package-copy.js";

const BUNDLE = path.join("dist", "doctor-cli", "fast-path.bundle.cjs");
const NOW = "2026-03-01T10:00:00.000Z";

describe("parseFastDoctor", () => {
  it.each([
    [["doctor"], {}],
    [["doctor", "--json"], { json: true }],
    [["--root", "/w", "doctor", "--strict", "--only", "drift"], { root: "/w", strict: true, only: "drift" }],
    [["doctor", "--only=continuity", "--transport", "inprocess", "--actor", "qa"], { only: "continuity", transport: "inprocess", actor: "qa" }],
  ])("takes %j", (argv, opts) => {
    expect(parseFastDoctor(argv)).toEqual(opts);
  });

  it.each([[["doctor", "--help"]], [["doctor", "--transport", "mcp"]], [["--strict", "doctor"]], [["doctor", "--only"]], [["doctor", "extra"]], [["doctor", "--nope"]], [["feature", "list"]], [["doctor", "--", "x"]]])(
    "leaves %j to the full program",
    (argv) => {
      expect(parseFastDoctor(argv)).toBeNull();
    },
  );
});

/** The commander program itself (dist/adapters/cli/main.js), never a fast route. */
function runProgram(args: string[], root: string): CliResult {
  const code = `const { main } = await import(${JSON.stringify(distUrl("adapters/cli/main.js"))}); await main(process.argv.slice(1));`;
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", AOP_NOW: NOW };
  for (const key of ["AOP_ROOT", "AOP_RUN_ID", "AOP_SESSION_ID", "AOP_ACTOR", "FORCE_COLOR"]) delete env[key];
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code, ...args], { cwd: root, env, encoding: "utf8" });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A workspace with findings of several families: a broken timeline, a stale lease-less run, a checkpoint. */
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

describe("aop doctor: the bundled route prints exactly what the other routes print", () => {
  let modular: string;
  beforeAll(() => {
    if (!fs.existsSync(path.join(REPO_ROOT, BUNDLE))) throw new Error(`${BUNDLE} is missing: run \`node scripts/build.mjs\` first`);
    modular = path.join(packageCopy((pkg) => fs.rmSync(path.join(pkg, BUNDLE))), "bin", "aop.js");
  });

  it.each([[["--json"]], [[]], [["--strict"]], [["--strict", "--json", "--only", "drift"]], [["--only", "nope"]], [["--only", "nope", "--json"]]])("doctor %j", (flags) => {
    const results: [string, CliResult][] = [];
    for (const [route, run] of [
      ["bundle", (args: string[], root: string) => runCli(args, { env: { AOP_NOW: NOW }, cwd: root })],
      ["modular build", (args: string[], root: string) => runCli(args, { env: { AOP_NOW: NOW }, cwd: root, bin: modular })],
      ["commander program", (args: string[], root: string) => runProgram(args, root)],
    ] as const) {
      results.push([route, run(["doctor", ...flags], workspace())]);
    }
    const [, expected] = results[0]!;
    expect(expected.stdout + expected.stderr).toMatch(flags[1] === "nope" ? /usage_error|--only must be one of/ : /DRIFT_006|unreadable line/);
    for (const [route, result] of results) expect(result, route).toEqual(expected);
  });
});
