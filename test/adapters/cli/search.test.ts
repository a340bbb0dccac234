// `aop search` over a scripted history made through the real CLI: several runs, failed calls, gates,
// a checkpoint, memory, the doctor's report; each kind of hit, each filter, the index's absence, staleness
// and damage changing nothing, several processes at once, hostile text, pulled records and --all.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliAsync, runJson } from "../../helpers/cli.js";
import { tempDir, writeFile } from "../../helpers/tmp.js";
import { minimalCheckpoint } from "../../domains/checkpoints/fixture.js";
import { search as searchService, type SearchArgs, type SearchHit as Hit, type SearchResult as Result } from "../../../src/domains/search/index.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";

const ESC = "\u001b";
let root: string;

function aop(args: string[], cwd = root) {
  return runCli(args, { cwd });
}
function ok(args: string[], cwd = root): void {
  const r = aop(args, cwd);
  expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBe(0);
}
/** Searches are tool calls recorded on the timeline too: they are recorded under their own run, left out by hitsOf. */
const SEARCHES = "run:searches";
function search(args: string[], cwd = root): Result {
  const r = runJson<Result>(["--run-id", SEARCHES, "search", ...args], { cwd });
  expect(r.code, r.stderr).toBe(0);
  return r.json;
}
/** Hits without the counters that say how they were found. */
function hitsOf(r: Result): { hits: Hit[] } {
  return { hits: r.hits.filter((h) => h.run_id !== SEARCHES) };
}
function timelineLines(runId: string): Record<string, unknown>[] {
  return fs
    .readFileSync(path.join(root, ".aop", "runtime", "replay", `${runId}.timeline.jsonl`), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const STATE_MD = `# Current state

## Objective
Ship the login page with remember-me.

## Blockers
Waiting on ${ESC}[2J<script>alert("pwn")</script> from the vendor.
`;

beforeAll(() => {
  root = tempDir("aop-search-");
  fs.mkdirSync(path.join(root, ".git"));
  ok(["init"]);
  const node = JSON.stringify(process.execPath);
  writeFile(
    root,
    "agentic/orchestrator/gates.yaml",
    `version: 1\ndefault_profile: default\nprofiles:\n  default:\n    modes:\n      fast:\n        - name: unit-tests\n          cmd: [${node}, -e, "0"]\n      broken:\n        - name: lint-check\n          cmd: [${node}, -e, "process.exit(3)"]\n`,
  );
  ok(["--run-id", "run:alpha", "feature", "init", "login-page", "--title", "Sesame portal"]);
  ok(["--run-id", "run:alpha", "feature", "init", "checkout"]);
  ok(["--run-id", "run:alpha", "gates", "run", "--feature-id", "login-page", "--mode", "fast"]);
  expect(aop(["--run-id", "run:alpha", "gates", "run", "--feature-id", "login-page", "--mode", "broken"]).code).not.toBe(0);
  expect(aop(["--run-id", "run:beta", "feature", "set-status", "login-page", "merged", "--expected-version", "99"]).code).not.toBe(0);
  expect(aop(["--run-id", "run:beta", "feature", "show", "ghost"]).code).not.toBe(0);
  ok(["--run-id", "run:beta", "feature", "set-status", "checkout", "blocked", "--expected-version", "1"]);
  writeFile(
    root,
    ".checkpoints/architect.checkpoint.json",
    JSON.stringify(
      minimalCheckpoint("architect", {
        project_dir: root,
        progress_summary: `Designing the login flow ${ESC}[31m<b>bold</b>`,
        next_actions: ["Write the session handler"],
        context_primer: { key_decisions: ["Use signed JWT cookies"] },
      }),
      null,
      2,
    ),
  );
  writeFile(root, "memory/CURRENT_STATE.md", STATE_MD);
  writeFile(root, "memory/session_archive/2026-11-30_10-00.md", "# Session\n\n## Done\nRefactored the checkout totals.\n");
  aop(["doctor"]);
}, 120_000);

describe("aop search finds every kind of record by its words", () => {
  it("finds steps, gate results, checkpoints and memory sections, newest first, each with its command", () => {
    const r = search(["login"]);
    const kinds = new Set(r.hits.map((h) => h.kind));
    for (const kind of ["step", "gate", "checkpoint", "memory"]) expect(kinds, kind).toContain(kind);
    const times = r.hits.map((h) => h.ts ?? "");
    expect(times).toEqual([...times].sort().reverse());
    expect(r.total_matched).toBe(r.hits.length);
    // The first feature.init of run:alpha is sequence 0 (the script's first call).
    const init = r.hits.find((h) => h.kind === "step" && h.tool_name === "feature.init");
    expect(init).toMatchObject({ run_id: "run:alpha", sequence: 0, feature_id: "login-page", open: "aop replay --run-id run:alpha --from-sequence 0", state: "aop state --run-id run:alpha --at 0" });
    const replay = aop(init!.open.split(" ").slice(1));
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain("feature.init");
    const checkpoint = r.hits.find((h) => h.kind === "checkpoint")!;
    expect(checkpoint).toMatchObject({ skill: "architect", open: "aop checkpoint show architect" });
    expect(aop(checkpoint.open.split(" ").slice(1)).stdout).toContain("Designing the login flow");
    expect(r.hits.find((h) => h.kind === "memory")).toMatchObject({ title: "memory/CURRENT_STATE.md § Objective", open: "less +3 memory/CURRENT_STATE.md" });
  });

  it("finds a failed call by its error code and by the message the ledger kept", () => {
    const byMessage = search(["version", "99"]);
    expect(byMessage.hits).toHaveLength(1);
    expect(byMessage.hits[0]).toMatchObject({ kind: "step", run_id: "run:beta", sequence: 0, tool_name: "feature.set_status", result: "error" });
    expect(byMessage.hits[0]!.snippet).toMatch(/^version_conflict: feature 'login-page' is at version \d+, not 99/);
    const byCode = search(["feature_not_found"]);
    expect(byCode.hits.map((h) => [h.run_id, h.sequence, h.tool_name])).toEqual([["run:beta", 1, "feature.get"]]);
  });

  it("a scan finds a failed call by its ledger message too, and by nothing else once the ledger is gone", () => {
    expect(hitsOf(search(["version", "99", "--scan"])).hits.map((h) => [h.run_id, h.sequence])).toEqual([["run:beta", 0]]);
    const copy = tempDir("aop-search-noledger-");
    fs.cpSync(path.join(root, ".aop"), path.join(copy, ".aop"), { recursive: true });
    fs.rmSync(path.join(copy, ".aop/runtime/operation-ledger"), { recursive: true, force: true });
    expect(hitsOf(search(["version", "99", "--scan"], copy)).hits).toEqual([]);
    expect(hitsOf(search(["version_conflict", "--scan"], copy)).hits.map((h) => [h.run_id, h.sequence, h.snippet])).toEqual([["run:beta", 0, "version_conflict"]]);
  });

  it("finds a gate result by its step, a checkpoint by its decision, an archived memory section, a run by its id", () => {
    const gate = search(["lint", "check"]);
    expect(gate.hits.filter((h) => h.kind === "gate")).toEqual([expect.objectContaining({ feature_id: "login-page", tool_name: "gates.run", result: "error" })]);
    expect(search(["jwt"]).hits.map((h) => [h.kind, h.skill])).toEqual([["checkpoint", "architect"]]);
    expect(search(["refactored", "totals"]).hits).toEqual([expect.objectContaining({ kind: "memory", ts: "2026-11-30T10:00:00.000Z", title: "memory/session_archive/2026-11-30_10-00.md § Done" })]);
    const run = search(["beta", "--kind", "run"]);
    expect(run.hits).toEqual([expect.objectContaining({ kind: "run", run_id: "run:beta", result: "error", open: "aop replay --run-id run:beta" })]);
  });

  it("finds the doctor's findings by the words of their messages", () => {
    const report = JSON.parse(fs.readFileSync(path.join(root, ".aop/runtime/doctor/last_report.json"), "utf8")) as { findings: { id: string; message: string }[] };
    expect(report.findings.length).toBeGreaterThan(0);
    const finding = report.findings[0]!;
    const words = finding.message.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 3).slice(0, 3);
    const r = search([...words, "--kind", "finding"]);
    expect(r.hits.map((h) => h.title)).toContain(r.hits.find((h) => h.title.startsWith(finding.id))!.title);
    expect(r.hits.every((h) => h.kind === "finding" && h.tool_name === "doctor.run")).toBe(true);
  });

  it("never finds a tool's raw input: it is not kept", () => {
    // The title was an argument of feature.init; the timeline keeps only the request's hash.
    expect(search(["sesame"]).hits).toEqual([]);
  });
});

describe("filters", () => {
  it("--tool, --feature-id and --result keep only hits carrying that value", () => {
    const inits = search(["--tool", "feature.init"]);
    expect(inits.hits.map((h) => [h.run_id, h.sequence])).toEqual([
      ["run:alpha", 1],
      ["run:alpha", 0],
    ]);
    const checkout = search(["--feature-id", "checkout"]);
    expect(checkout.hits.map((h) => `${h.kind} ${h.tool_name}`).sort()).toEqual(["step feature.init", "step feature.set_status"]);
    const errors = search(["--result", "error", "--limit", "100"]);
    expect(errors.hits.every((h) => h.result === "error")).toBe(true);
    // From the script: the broken gate (step and its evidence), the conflict, the missing feature, both runs, and the findings.
    const expectedSteps = ["run:alpha", "run:beta"].flatMap((run) => timelineLines(run).filter((l) => l.result === "error").map((l) => `${run}#${l.sequence as number}`));
    const scripted = errors.hits.filter((h) => h.kind === "step" && (h.run_id === "run:alpha" || h.run_id === "run:beta"));
    expect(scripted.map((h) => `${h.run_id}#${h.sequence}`).sort()).toEqual(expectedSteps.sort());
    expect(errors.hits.filter((h) => h.kind === "gate").map((h) => h.title)).toEqual(["gate broken fail — login-page"]);
    expect(search(["--result", "ok", "--kind", "gate"]).hits.map((h) => h.title)).toEqual(["gate fast pass — login-page"]);
  });

  it("--since takes a span back from now or an ISO time", () => {
    expect(search(["--since", "2030-01-01"]).hits).toEqual([]);
    const recent = search(["checkout", "--since", "1h"]);
    expect(recent.hits.length).toBeGreaterThan(0);
    expect(recent.hits.some((h) => h.title.includes("session_archive"))).toBe(false); // dated 2026-11-30 by its name
    expect(search(["checkout", "--since", "2026-11-01"]).hits.some((h) => h.title.includes("session_archive"))).toBe(true);
  });

  it("pages with a cursor: the pages together are the whole list, in order", () => {
    const whole = hitsOf(search(["--limit", "1000"]));
    const seen: Hit[] = [];
    let cursor: string | null = null;
    do {
      const page: Result = search(["--limit", "4", ...(cursor ? ["--cursor", cursor] : [])]);
      seen.push(...hitsOf(page).hits);
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen.map((h) => h.title)).toEqual(whole.hits.map((h) => h.title));
  });

  it("refuses bad filters with what to write instead", () => {
    const since = aop(["search", "x", "--since", "yesterday"]);
    expect(since.code).not.toBe(0);
    expect(since.stderr).toMatch(/invalid_argument: since must be an ISO date or time/);
    expect(aop(["search", "--kind", "steps"]).stderr).toMatch(/--kind takes run, step, checkpoint, memory, finding, gate/);
    expect(aop(["search", "--result", "failed"]).stderr).toMatch(/--result must be ok or error/);
    expect(aop(["search", "--cursor", "zzz"]).stderr).toMatch(/cursor is not one this search returned/);
    expect(aop(["search", "x", "--origin", "nobody"]).stderr).toMatch(/no pulled records match origin 'nobody'/);
  });
});

describe("the index never changes a result", () => {
  // Whole lists (the searches' own steps, left out by hitsOf, would otherwise push hits off a page).
  const QUERIES: SearchArgs[] = [{ query: "login" }, { query: "feature" }, { query: "error" }, { query: "", tool_name: "gates.run" }, { query: "run alpha" }, { query: "" }, { query: "zzz-nothing" }].map((q) => ({ ...q, limit: 1000 }));
  /** Every query through the search service itself, in this process: the matrix of states below is the service's; the CLI's part is one query a state. */
  const all = async (extra: Partial<SearchArgs> = {}) => {
    const results: { hits: Hit[] }[] = [];
    for (const q of QUERIES) results.push(hitsOf(await searchService(new WorkspaceLayout(root), { ...q, ...extra }, Date.now())));
    return results;
  };
  /** The same through `aop search`, for one query: the CLI's flags, its process building and reading the index. */
  const CLI_QUERY = ["login", "--limit", "1000"];

  it("same hits without the index, with a fresh one, a rebuilt one, a stale one and a damaged one", async () => {
    const scanned = await all({ use_index: false });
    const cliScanned = hitsOf(search([...CLI_QUERY, "--scan"]));
    fs.rmSync(path.join(root, ".aop/runtime/search"), { recursive: true, force: true });
    expect(hitsOf(search(CLI_QUERY))).toEqual(cliScanned); // `aop search` builds the index
    expect(fs.readdirSync(path.join(root, ".aop/runtime/search")).some((n) => n.endsWith(".index.json"))).toBe(true);
    expect(await all()).toEqual(scanned);
    const indexed = search(["lint"]);
    expect(indexed.runs_indexed).toBeGreaterThan(0);
    expect(indexed.lines_read).toBeLessThan(search(["lint", "--scan"]).lines_read);
    expect(hitsOf(search([...CLI_QUERY, "--reindex"]))).toEqual(cliScanned);
    expect(await all({ reindex: true })).toEqual(scanned);

    // Stale: more calls after the index was written.
    ok(["--run-id", "run:alpha", "feature", "init", "login-extra"]);
    expect(aop(["--run-id", "run:beta", "feature", "show", "ghost-two"]).code).not.toBe(0);
    const rescanned = await all({ use_index: false });
    expect(rescanned).not.toEqual(scanned);
    const cliRescanned = hitsOf(search([...CLI_QUERY, "--scan"]));
    expect(hitsOf(search(CLI_QUERY))).toEqual(cliRescanned);
    expect(await all()).toEqual(rescanned);

    // Damaged: garbage, an index of other bytes, a timeline rewritten under its index.
    const indexFile = path.join(root, ".aop/runtime/search/run:alpha.index.json");
    fs.writeFileSync(indexFile, "{not json");
    expect(hitsOf(search(CLI_QUERY))).toEqual(cliRescanned);
    expect(fs.readFileSync(indexFile, "utf8")).not.toBe("{not json"); // rewritten whole by that search
    fs.writeFileSync(indexFile, "{not json");
    expect(await all()).toEqual(rescanned);
    expect(search(["lint"]).runs_indexed).toBeGreaterThan(0);
    const timeline = path.join(root, ".aop/runtime/replay/run:alpha.timeline.jsonl");
    const bytes = fs.readFileSync(timeline);
    fs.writeFileSync(timeline, bytes.subarray(0, bytes.indexOf(0x0a) + 1)); // cut back to one line: the index is past the end
    const cut = await all({ use_index: false });
    expect(await all()).toEqual(cut);
    expect(hitsOf(search(CLI_QUERY))).toEqual(hitsOf(search([...CLI_QUERY, "--scan"])));
    fs.writeFileSync(timeline, bytes);
    expect(await all()).toEqual(rescanned);
    expect(hitsOf(search(CLI_QUERY))).toEqual(cliRescanned);
  }, 180_000);

  it("several processes searching and appending at once: every call succeeds, and the index agrees with a scan after", async () => {
    const jobs: Promise<{ code: number; stderr: string }>[] = [];
    for (let i = 0; i < 4; i++) {
      jobs.push(runCliAsync(["--run-id", "run:alpha", "feature", "init", `busy-${i}`], { cwd: root }));
      jobs.push(runCliAsync(["search", "busy", "--json"], { cwd: root }));
      jobs.push(runCliAsync(["search", "login", "--json"], { cwd: root }));
    }
    for (const r of await Promise.all(jobs)) expect(r.code, r.stderr).toBe(0);
    for (const q of [["busy"], ["login"], []].map((w) => [...w, "--limit", "1000"])) expect(hitsOf(search(q))).toEqual(hitsOf(search([...q, "--scan"])));
    expect(search(["busy", "--kind", "step"]).hits.map((h) => h.feature_id).sort()).toEqual(["busy-0", "busy-1", "busy-2", "busy-3"]);
    const leftovers = fs.readdirSync(path.join(root, ".aop/runtime/search")).filter((n) => !n.endsWith(".index.json"));
    expect(leftovers).toEqual([]);
  }, 120_000);
});

describe("hostile text", () => {
  it("is escaped in the terminal and kept as data in --json", () => {
    const human = aop(["search", "vendor"]);
    expect(human.code).toBe(0);
    expect(human.stdout).not.toContain(ESC);
    expect(human.stdout).toContain("\\x1b[2J");
    const designing = aop(["search", "designing"]).stdout;
    expect(designing).not.toContain(ESC);
    expect(designing).toContain("\\x1b[31m<b>bold</b>");
    expect(search(["vendor"]).hits[0]!.snippet).toContain(`${ESC}[2J<script>`);
  });
});

describe("pulled records and --all", () => {
  const WS_ID = "0123456789abcdef0123456789abcdef";

  /** A workspace-shaped copy of this workspace's records, as `aop sync pull` lays them out. */
  function pulled(into: string, displayName: string, id: string): string {
    const dir = path.join(into, ".aop", "remote", "origin", id);
    for (const part of [".aop/runtime/replay", ".aop/runtime/operation-ledger", ".aop/features", ".checkpoints", "memory"]) fs.cpSync(path.join(root, part), path.join(dir, part), { recursive: true });
    writeFile(dir, "origin.json", JSON.stringify({ version: 1, remote: "origin", workspace_id: id, display_name: displayName, commit: "a".repeat(40), committed_at: "2026-12-01T00:00:00.000Z", pulled_at: "2026-12-01T00:00:01.000Z" }));
    return dir;
  }

  it("--origin searches the pulled workspace it names (label, display name or id prefix), read-only, with commands that open its records", () => {
    const here = tempDir("aop-search-pull-");
    fs.mkdirSync(path.join(here, ".git"));
    ok(["init"], here);
    const dir = pulled(here, "alice@laptop", WS_ID);
    pulled(here, "bob's box", "fedcba9876543210fedcba9876543210");
    expect(search(["version", "99"], here).hits).toEqual([]); // not searched unless asked
    for (const name of ["alice@laptop", "0123456789ab"]) {
      const r = search(["version", "99", "--origin", name], here);
      expect(r.hits).toHaveLength(1);
      expect(r.hits[0]).toMatchObject({ origin: "alice@laptop", run_id: "run:beta", sequence: 0, open: `aop --root .aop/remote/origin/${WS_ID} replay --run-id run:beta --from-sequence 0` });
      const opened = aop(r.hits[0]!.open.split(" ").slice(1), here);
      expect(opened.code, opened.stderr).toBe(0);
      expect(opened.stdout).toContain("feature.set_status");
    }
    expect(search(["jwt", "--origin", "bob-s-box"], here).hits[0]).toMatchObject({ origin: "bob-s-box", kind: "checkpoint" });
    // The terminal shows a pulled run as <origin>/<run_id>.
    expect(aop(["search", "version", "99", "--origin", "alice@laptop"], here).stdout).toContain("feature.set_status #0  alice@laptop/run:beta  error");
    expect(aop(["search", "beta", "--kind", "run", "--origin", "alice@laptop"], here).stdout).toMatch(/run alice@laptop\/run:beta \(\d+ entries, \d+ errors\)/);
    expect(fs.existsSync(path.join(dir, ".aop/runtime/search"))).toBe(false);
    expect(aop(["search", "x", "--origin", "0123"], here).stderr).toMatch(/no pulled records match/); // a prefix under 8 hex names nothing
  });

  it("--all searches every workspace under the root and says which each hit came from", () => {
    const parent = tempDir("aop-search-all-");
    for (const name of ["one", "two/nested"]) fs.cpSync(root, path.join(parent, name), { recursive: true });
    const r = search(["--root", parent, "--all", "version", "99"], parent);
    expect(r.workspaces).toBe(2);
    expect(r.hits.map((h) => h.workspace).sort()).toEqual(["one", "two/nested"]);
    expect(r.hits.find((h) => h.workspace === "two/nested")!.open).toBe("aop --root two/nested replay --run-id run:beta --from-sequence 0");
    expect(aop(["--root", parent, "search", "--all", "version", "99"], parent).stdout).toContain("two/nested: feature.set_status #0  run:beta  error");
  });
});
