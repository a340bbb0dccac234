import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { runCli, runJson } from "../../helpers/cli.js";
import { CLI_BIN } from "../../helpers/paths.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";

let seed: string;

/** A run of four calls (a success, an error, its replay, a read of a missing feature), made once per file. */
beforeAll(() => {
  seed = tempWorkspace();
  const r = ["--root", seed, "--run-id", "run:demo"];
  runCli(["feature", "init", "feat_a", ...r]);
  runCli(["call", "feature.init", "--args", '{"feature_id":"feat_a"}', "--operation-id", "op-cli-000001", ...r]);
  runCli(["call", "feature.init", "--args", '{"feature_id":"feat_a"}', "--operation-id", "op-cli-000001", ...r]);
  runCli(["feature", "show", "ghost", ...r]);
});

/** A copy of the seeded workspace of this test's own. */
function seeded(): string {
  const root = path.join(tempDir("aop-replay-"), "ws");
  fs.cpSync(seed, root, { recursive: true });
  return root;
}

describe("aop replay", () => {
  it("prints aligned columns with ok/ERROR, M, idempotency badge, tool, feature and a footer", () => {
    const root = seeded();
    const r = runCli(["replay", "--run-id", "run:demo", "--root", root]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toMatch(/^SEQ\s+TIME\s+RESULT\s+M\s+IDEMP\s+TOOL\s+FEATURE\s+LATENCY$/);
    expect(lines[1]).toMatch(/^\s+0\s+\d{2}:\d{2}:\d{2}\.\d{3}\s+ok\s+M\s+new\s+feature\.init\s+feat_a\s+[\d.]+ms$/);
    expect(lines[2]).toMatch(/ERROR feature_already_exists\s+M\s+new\s+feature\.init/);
    expect(lines[3]).toMatch(/ERROR feature_already_exists\s+M\s+REPLAY\s+feature\.init/);
    expect(lines[4]).toMatch(/ERROR feature_not_found\s+-\s+feature\.get\s+ghost/);
    expect(r.stdout).toMatch(/4 of 4 matching entries \(seq 0–3\) · 3 errors on this page/);
  });

  it("filters and pages, with a hint for the next page", () => {
    const root = seeded();
    const r = runCli(["replay", "--run-id", "run:demo", "--result", "error", "--limit", "1", "--root", root]);
    expect(r.stdout).toMatch(/1 of 3 matching entries/);
    expect(r.stdout).toMatch(/next page: aop replay --run-id run:demo --from-sequence 2 --limit 1/);
    const j = runJson<{ entries: { sequence: number }[]; total_matched: number }>(["replay", "--run-id", "run:demo", "--tool", "feature.get", "--root", root]);
    expect(j.json.entries.map((e) => e.sequence)).toEqual([3]);
  });

  it("--list shows runs with entries and errors", () => {
    const root = seeded();
    const r = runCli(["replay", "--list", "--root", root]);
    expect(r.stdout).toMatch(/run:demo\s+4\s+3\s+/);
    const j = runJson<{ runs: { run_id: string; entries: number }[] }>(["replay", "--list", "--root", root]);
    expect(j.json.runs.find((x) => x.run_id === "run:demo")!.entries).toBeGreaterThanOrEqual(4);
  });

  it("without --run-id: a usage error (exit 2) whose hint lists recent runs", () => {
    const root = seeded();
    const r = runCli(["replay", "--root", root]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error usage_error: --run-id is required/);
    expect(r.stderr).toMatch(/hint: recent runs: .*run:demo/);
  });

  it("--follow prints entries as a live run writes them", async () => {
    const root = seeded();
    const child = spawn(process.execPath, [CLI_BIN, "replay", "--follow", "--run-id", "run:demo", "--root", root], { env: { ...process.env, NO_COLOR: "1" } });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const waitFor = async (re: RegExp) => {
      for (let i = 0; i < 100 && !re.test(out); i++) await new Promise((r) => setTimeout(r, 100));
      expect(out).toMatch(re);
    };
    await waitFor(/feature\.get\s+ghost/);
    runCli(["run", "status", "--root", root, "--run-id", "run:demo"]);
    await waitFor(/\s4\s+\S+\s+ok\s+-\s+run\.status/);
    child.kill("SIGINT");
    await new Promise((r) => child.on("close", r));
  });

  it("--follow adds no abort listener per poll: no MaxListenersExceededWarning however long it runs", async () => {
    const root = seeded();
    const child = spawn(process.execPath, [CLI_BIN, "replay", "--follow", "--run-id", "run:demo", "--root", root], { env: { ...process.env, NO_COLOR: "1" } });
    let err = "";
    let out = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    // Following from the moment it printed the run (however long a loaded machine took to start it):
    // ten polls are 2 s, and Node warns at the eleventh listener on one signal.
    await expect.poll(() => out, { timeout: 20_000, interval: 50 }).toMatch(/feature\.get\s+ghost/);
    await new Promise((r) => setTimeout(r, 3_500));
    child.kill("SIGINT");
    await new Promise((r) => child.on("close", r));
    expect(err).not.toMatch(/MaxListenersExceededWarning/);
  });
});
