// `aop continuity doctor` / `continuity-doctor` on one workspace: the format and exit codes of docs/continuity.md.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { CONTINUITY_DOCTOR_BIN, REPO_ROOT } from "../../helpers/paths.js";
import { tempDir, writeFile } from "../../helpers/tmp.js";
import { cliEnv as envFor, HOUR, makeWorkspace, MINUTE, setAge, stateMarkdown, type WorkspaceSpec } from "../../domains/doctor/fixtures.js";

function doctor(spec: WorkspaceSpec, args: string[] = [], bin?: string) {
  const ws = makeWorkspace(spec);
  const r = runCli(["continuity", "doctor", "--workspace", ws.root, ...args].slice(bin ? 2 : 0), { env: envFor(ws), ...(bin ? { bin } : {}) });
  return { ...r, ws, lines: r.stdout.trimEnd().split("\n") };
}

const TAG = /^\[(CRITICAL|WARNING|INFO|OK)\] +/;

describe("continuity doctor: one workspace", () => {
  beforeAll(() => {
    if (!fs.existsSync(path.join(REPO_ROOT, "dist", "cli", "cli.bundle.cjs"))) throw new Error("run `node scripts/build.mjs` first");
  });

  it("prints one finding a line behind fixed-width tags, worst first, then the passing checks; exit 1 on a warning", () => {
    const r = doctor({
      stateAgeMs: 2 * HOUR,
      openclawSessions: [{ agent: "main", file: "s.jsonl", ageMs: 30 * MINUTE }],
      state: stateMarkdown({ "Unsurfaced Results": "- 3 tests failed in auth.spec.ts" }),
      archives: { "2026-05-30_09-00.md": stateMarkdown({ Objective: "Write the billing export" }) },
    });
    expect(r.lines).toEqual([
      "[WARNING]  CURRENT_STATE.md is stale (last modified 2h ago, session ran 30m ago)",
      '[WARNING]  Unsurfaced Results section is not empty — review needed: "3 tests failed in auth.spec.ts"',
      '[INFO]     Archive objective differs from current objective (task switch?): 2026-05-30_09-00.md had "Write the billing export"',
      "[OK]       memory/CURRENT_STATE.md exists",
      "[OK]       Template compliance: all sections present",
      "[OK]       No template placeholders left",
    ]);
    expect(r.code).toBe(1);
    for (const line of r.lines) expect(line.replace(TAG, "").length).toBe(line.length - 11);
  });

  it("exit 2 and a CRITICAL line when memory/CURRENT_STATE.md is missing", () => {
    const r = doctor({ state: null });
    expect(r.lines).toEqual(["[CRITICAL] memory/CURRENT_STATE.md does not exist"]);
    expect(r.code).toBe(2);
  });

  it("exit 0 when healthy, and with info findings alone", () => {
    expect(doctor({}).code).toBe(0);
    const info = doctor({ state: stateMarkdown({ Objective: "[One sentence: what are we trying to accomplish]" }) });
    expect(info.lines[0]).toMatch(/^\[INFO\] {5}Section 'Objective' still contains placeholder text/);
    expect(info.code).toBe(0);
  });

  it("transcripts older than the state file: up to date; newer: stale (through --transcripts)", () => {
    const dir = tempDir("aop-tr-");
    const file = writeFile(dir, "run.jsonl", "{}\n");
    setAge(file, 3 * HOUR);
    const older = doctor({ stateAgeMs: 1 * HOUR }, ["--transcripts", dir]);
    expect(older.lines).toContain("[OK]       CURRENT_STATE.md is up to date (last modified 1h ago, session ran 3h ago)");
    expect(older.code).toBe(0);
    setAge(file, 10 * MINUTE);
    const newer = doctor({ stateAgeMs: 1 * HOUR }, ["--transcripts", dir]);
    expect(newer.lines[0]).toBe("[WARNING]  CURRENT_STATE.md is stale (last modified 1h ago, session ran 10m ago)");
    expect(newer.code).toBe(1);
  });

  it("a Claude Code session of the workspace in ~/.claude/projects counts", () => {
    const r = doctor({ stateAgeMs: 3 * HOUR, claudeSessions: [{ file: "x.jsonl", ageMs: HOUR }] });
    expect(r.lines[0]).toBe("[WARNING]  CURRENT_STATE.md is stale (last modified 3h ago, session ran 1h ago)");
  });

  it("no transcript: over 24 h is a warning (exit 1), over 4 h an info (exit 0)", () => {
    const day = doctor({ stateAgeMs: 26 * HOUR });
    expect(day.lines[0]).toBe("[WARNING]  CURRENT_STATE.md is stale (last modified 26h ago; no session transcript found to compare with)");
    expect(day.code).toBe(1);
    const hours = doctor({ stateAgeMs: 6 * HOUR });
    expect(hours.lines[0]).toBe("[INFO]     CURRENT_STATE.md last modified 6h ago (no session transcript found to compare with)");
    expect(hours.code).toBe(0);
  });

  it("a template with a --- and notes after the last section is healthy", () => {
    const r = doctor({ state: stateMarkdown({}, "\n---\n\n## Notes\nThe 3 failures from yesterday are fixed.\n\nMore notes\n") });
    expect(r.lines).toContain("[OK]       No unsurfaced results pending");
    expect(r.code).toBe(0);
  });

  it("binary garbage in CURRENT_STATE.md: one clear warning, no stack trace", () => {
    const r = doctor({ state: Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00, 0xff, 0xd8]) });
    expect(r.lines[0]).toBe("[WARNING]  CURRENT_STATE.md is not text (binary data): none of the six sections can be read");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
  });

  it("a huge CURRENT_STATE.md is read only up to the bound", () => {
    const r = doctor({ state: stateMarkdown() + "## Log\n" + "- appended line\n".repeat(400_000) });
    expect(r.lines[0]).toMatch(/^\[INFO\] {5}CURRENT_STATE\.md is 6\.\d MiB; only the first 256 KiB were read$/);
    expect(r.code).toBe(0);
  });

  it("without --workspace it checks the workspace root (nearest marker above the current folder, or --root)", () => {
    const ws = makeWorkspace({ state: null });
    fs.mkdirSync(path.join(ws.root, ".git"));
    fs.mkdirSync(path.join(ws.root, "src"));
    const nested = runCli(["continuity", "doctor"], { cwd: path.join(ws.root, "src"), env: envFor(ws) });
    expect(nested.stdout.trim()).toBe("[CRITICAL] memory/CURRENT_STATE.md does not exist");
    const other = makeWorkspace();
    const byRoot = runCli(["--root", other.root, "continuity", "doctor"], { cwd: path.join(ws.root, "src"), env: envFor(ws) });
    expect(byRoot.code).toBe(0);
  });

  it("the continuity-doctor bin prints exactly what `aop continuity doctor` prints, human and JSON", () => {
    const ws = makeWorkspace({ stateAgeMs: 2 * HOUR, openclawSessions: [{ agent: "main", file: "s.jsonl", ageMs: MINUTE }] });
    for (const extra of [[], ["--json"]]) {
      const viaAop = runCli(["continuity", "doctor", "--workspace", ws.root, ...extra], { env: envFor(ws) });
      const viaBin = runCli(["--workspace", ws.root, ...extra], { env: envFor(ws), bin: CONTINUITY_DOCTOR_BIN });
      expect(viaBin).toEqual(viaAop);
      expect(viaBin.code).toBe(1);
    }
  });

  it("help with examples on the group, the command and the bin; --version on the bin", () => {
    for (const [args, bin] of [[["continuity", "--help"]], [["continuity", "doctor", "--help"]], [["--help"], CONTINUITY_DOCTOR_BIN]] as [string[], string?][]) {
      const r = runCli(args, bin ? { bin } : {});
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout).toMatch(/Example/);
    }
    expect(runCli(["--version"], { bin: CONTINUITY_DOCTOR_BIN }).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("usage errors exit 2 with a message, also from the bin: unknown flag, missing value, missing --transcripts folder", () => {
    const ws = makeWorkspace();
    const cases: [string[], RegExp][] = [
      [["--bogus"], /^error usage_error: unknown option '--bogus'/],
      [["--workspace"], /^error usage_error: option '--workspace <dir>' argument missing/],
      [["--transcripts", path.join(ws.root, "nope")], /^error usage_error: --transcripts .*nope: not a directory\nhint: /],
    ];
    for (const [args, message] of cases) {
      for (const r of [runCli(args, { bin: CONTINUITY_DOCTOR_BIN, env: envFor(ws) }), runCli(["continuity", "doctor", ...args], { env: envFor(ws) })]) {
        expect(r.code, args.join(" ")).toBe(2);
        expect(r.stderr, args.join(" ")).toMatch(message);
        expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
      }
    }
    const json = runCli(["--bogus", "--json"], { bin: CONTINUITY_DOCTOR_BIN });
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: "usage_error" } });
  });

  it("colors only when asked for (FORCE_COLOR), never with NO_COLOR or --json", () => {
    const ws = makeWorkspace({ state: null });
    const colored = runCli(["--workspace", ws.root], { bin: CONTINUITY_DOCTOR_BIN, env: envFor(ws, { NO_COLOR: undefined, FORCE_COLOR: "1" }) });
    expect(colored.stdout).toContain("\u001b[31m[CRITICAL]\u001b[39m");
    const plain = runCli(["--workspace", ws.root], { bin: CONTINUITY_DOCTOR_BIN, env: envFor(ws) });
    expect(plain.stdout).not.toContain("\u001b[");
    const json = runCli(["--workspace", ws.root, "--json"], { bin: CONTINUITY_DOCTOR_BIN, env: envFor(ws, { NO_COLOR: undefined, FORCE_COLOR: "1" }) });
    expect(json.stdout).not.toContain("\u001b[");
  });
});
