// Whole-number flags take decimal digits only (docs/hardening.md "Numbers on the command line"): one
// parser (flags.ts) for every such flag, so "1e3", "0x10" and "" never become numbers.
import { describe, expect, it } from "vitest";
import { decimalInteger, parseWholeNumberFlag } from "../../../src/adapters/cli/flags/flags.js";
import { runCli } from "../../helpers/cli.js";
import { tempWorkspace } from "../../helpers/tmp.js";

describe("whole-number flags", () => {
  it.each([
    ["0", 0],
    ["65535", 65535],
    ["007", 7],
    ["9007199254740991", 9007199254740991],
    ["9007199254740992", null],
    ["1e4", null],
    ["0x4E21", null],
    ["0b1", null],
    ["0o7", null],
    ["", null],
    [" 7", null],
    ["7 ", null],
    ["+7", null],
    ["-7", null],
    ["7.0", null],
    ["Infinity", null],
    ["٣", null],
  ])("decimalInteger(%j) = %j", (text, expected) => {
    expect(decimalInteger(text)).toBe(expected);
  });

  it("parseWholeNumberFlag names the flag, its range and what it got", () => {
    expect(parseWholeNumberFlag("--port", "8080", 0, 65535)).toBe(8080);
    expect(() => parseWholeNumberFlag("--port", "0x4E21", 0, 65535, "0 picks any free port")).toThrow(expect.objectContaining({ code: "usage_error", message: "--port must be a whole number from 0 to 65535, in decimal digits (got '0x4E21')", hint: "0 picks any free port" }));
    expect(() => parseWholeNumberFlag("--limit", "1e2", 0)).toThrow("--limit must be a whole number ≥ 0, in decimal digits (got '1e2')");
  });

  it("aop report --serve --port takes decimal digits only: 1e4 and 0x4E21 are usage errors, not ports 10000 and 20001", () => {
    const root = tempWorkspace();
    for (const port of ["1e4", "0x4E21", "65536", "+80", "80.0", " 80", "-1"]) {
      const r = runCli(["report", "--serve", "--port", port, "--root", root], { timeoutMs: 15_000 });
      expect([r.code, r.stdout], `${port}: ${r.stderr}`).toEqual([2, ""]);
      expect(r.stderr.startsWith(`error usage_error: --port must be a whole number from 0 to 65535, in decimal digits (got '${port}')\nhint: 0 picks any free port\n`), r.stderr).toBe(true);
    }
  });

  it.each([
    [["replay", "--run-id", "r", "--limit", "1e2"], "--limit"],
    [["replay", "--run-id", "r", "--from-sequence", "0x10"], "--from-sequence"],
    [["export", "otlp", "--run-id", "r", "--out", "x.jsonl", "--batch-size", "1e3"], "--batch-size"],
    [["feature", "set-status", "feat_a", "blocked", "--expected-version", "1e0"], "--expected-version"],
    [["run", "start", "--ttl", "6e2"], "--ttl"],
    [["evidence", "prove", "--feature-id", "feat_a", "--sequence", "0x0"], "--sequence"],
    [["checkpoint", "done", "architect", "--timeout", "1e2"], "--timeout"],
  ])("aop %j: a usage error naming %s, before anything runs", (args, flag) => {
    const root = tempWorkspace();
    const r = runCli(["--root", root, ...args]);
    expect([r.code, r.stdout], r.stderr).toEqual([2, ""]);
    expect(r.stderr).toMatch(new RegExp(`^error usage_error: ${flag} must be a whole number .*, in decimal digits \\(got '`));
  });
});
