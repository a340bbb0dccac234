// One bad run never blocks the rest (DESIGN §23, docs/hardening.md): with one good run, one whose
// timeline is a symbolic link out of the workspace and one whose timeline is a FIFO, `aop replay --list`,
// `aop report`, `aop report --serve` and `aop export otlp --all` skip the two bad runs with a note and
// list, serve and export the good one.
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, runJson } from "../../helpers/cli.js";
import { get, serveReport } from "../../helpers/report-serve.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";
import type { ReportData } from "../../../src/domains/report/report-types.js";

let root: string;
const OUTSIDE = /leads outside the workspace .*\[path_outside_workspace\]/;
const FIFO = /is a FIFO, not a regular file: not read \[not_a_regular_file\]/;

beforeAll(() => {
  root = tempWorkspace();
  for (const run of ["good-run", "linked-run", "fifo-run"]) expect(runCli(["--root", root, "--run-id", run, "feature", "init", `f_${run.split("-")[0]!}`]).code).toBe(0);
  const replay = path.join(root, ".aop/runtime/replay");
  const away = path.join(tempDir("aop-away-"), "linked-run.timeline.jsonl");
  fs.renameSync(path.join(replay, "linked-run.timeline.jsonl"), away);
  fs.symlinkSync(away, path.join(replay, "linked-run.timeline.jsonl"));
  fs.rmSync(path.join(replay, "fifo-run.timeline.jsonl"));
  execFileSync("mkfifo", [path.join(replay, "fifo-run.timeline.jsonl")]);
}, 60_000);

function embedded(html: string): ReportData {
  const m = /<script type="application\/json" id="aop-report-data">([^<]*)<\/script>/.exec(html);
  if (!m) throw new Error("no data element");
  return JSON.parse(m[1]!) as ReportData;
}

function expectGoodRunShown(data: ReportData): void {
  expect(data.timelines.map((t) => t.run_id)).toEqual(["good-run"]);
  const byId = new Map(data.runs.map((r) => [r.run_id, r]));
  expect(byId.get("good-run")).toMatchObject({ entries: 1, embedded: true, note: null });
  expect(byId.get("linked-run")!.note).toMatch(OUTSIDE);
  expect(byId.get("fifo-run")!.note).toMatch(FIFO);
  expect(data.notes.join("\n")).toMatch(OUTSIDE);
  expect(data.notes.join("\n")).toMatch(FIFO);
}

describe("one bad run never blocks the rest", () => {
  it("replay --list lists every run, the bad ones with their problem in NOTES", () => {
    const table = runCli(["--root", root, "replay", "--list"], { timeoutMs: 20_000 });
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/NOTES$/);
    expect(lines.find((l) => l.startsWith("good-run"))).toMatch(/^good-run\s+1\s+0\s+\S+Z\s+\S+Z$/);
    expect(lines.find((l) => l.startsWith("linked-run"))).toMatch(OUTSIDE);
    expect(lines.find((l) => l.startsWith("fifo-run"))).toMatch(FIFO);

    const json = runJson<{ runs: { run_id: string; entries: number; problem: string | null }[] }>(["--root", root, "replay", "--list"], { timeoutMs: 20_000 });
    expect(json.code).toBe(0);
    const byId = new Map(json.json.runs.map((r) => [r.run_id, r]));
    expect(byId.get("good-run")).toMatchObject({ entries: 1, problem: null });
    expect(byId.get("linked-run")!.problem).toMatch(OUTSIDE);
    expect(byId.get("fifo-run")!.problem).toMatch(FIFO);
  });

  it("report writes the page with the good run and a notice for each bad one", () => {
    const out = path.join(tempDir(), "r.html");
    const r = runCli(["--root", root, "report", "--out", out], { timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(OUTSIDE);
    expectGoodRunShown(embedded(fs.readFileSync(out, "utf8")));
  });

  it("report --serve answers GET / with the page, the good run's timeline on demand", async () => {
    const served = await serveReport(root);
    try {
      const host = { host: new URL(served.url).host };
      const page = await get(served.url, host);
      expect(page.status, page.body.slice(0, 500)).toBe(200);
      expectGoodRunShown(embedded(page.body));
      const good = await get(new URL("api/timeline?run=good-run", served.url).href, host);
      expect(good.status).toBe(200);
      const bad = await get(new URL("api/timeline?run=linked-run", served.url).href, host);
      expect(bad.status).toBe(404);
      expect(bad.body).toMatch(/outside the workspace/);
    } finally {
      served.child.kill("SIGTERM");
      await served.exited;
    }
  });

  it("export otlp --all exports the good run and names each skipped one, in text and --json", () => {
    const out = path.join(tempDir(), "traces.jsonl");
    const text = runCli(["--root", root, "export", "otlp", "--all", "--out", out, "--dry-run"], { timeoutMs: 20_000 });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^good-run .* would send \d+ spans/m);
    expect(text.stdout).toMatch(new RegExp(`^linked-run  skipped: timeline file ${OUTSIDE.source}`, "m"));
    expect(text.stdout).toMatch(new RegExp(`^fifo-run  skipped: timeline file ${FIFO.source}`, "m"));
    expect(text.stdout).toMatch(/from 1 of 1 run .*· 2 runs skipped: timeline not readable/);

    const json = runJson<{ runs: { run_id: string; spans: number }[]; skipped: { run_id: string; problem: string }[] }>(["--root", root, "export", "otlp", "--all", "--out", out], { timeoutMs: 20_000 });
    expect(json.code).toBe(0);
    expect(json.json.runs.map((r) => r.run_id)).toEqual(["good-run"]);
    expect(json.json.runs[0]!.spans).toBeGreaterThan(0);
    expect(json.json.skipped.map((s) => s.run_id).sort()).toEqual(["fifo-run", "linked-run"]);
    expect(fs.readFileSync(out, "utf8").trim().split("\n")).toHaveLength(1);
  });

  it("export otlp of named runs exports the readable ones and fails for the bad one", () => {
    const out = path.join(tempDir(), "traces.jsonl");
    const r = runJson<{ runs: { run_id: string }[]; skipped: { run_id: string; problem: string }[] }>(["--root", root, "export", "otlp", "--run-id", "fifo-run", "--run-id", "good-run", "--out", out], { timeoutMs: 20_000 });
    expect(r.code).toBe(1);
    expect(r.json.runs.map((x) => x.run_id)).toEqual(["good-run"]);
    expect(r.json.skipped).toEqual([{ run_id: "fifo-run", problem: expect.stringMatching(FIFO) }]);
  });
});
