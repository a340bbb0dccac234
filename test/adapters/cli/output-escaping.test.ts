// Agent text never drives the terminal (docs/hardening.md): a tool name, a feature title or a progress
// summary carrying ESC / OSC sequences is printed with them escaped, with colors off and on; JSON output
// keeps the text exactly (JSON escapes control characters itself).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { escapeControl, escapeInline, sanitizeOutput } from "../../../src/adapters/cli/output/escape.js";
import { runCli } from "../../helpers/cli.js";
import { tempWorkspace } from "../../helpers/tmp.js";

// Clear screen, an OSC 0 title change, an OSC 8 hyperlink, a color, a bidi override and a carriage return.
const EVIL = "ok\u001b[2J\u001b]0;pwned\u0007\u001b]8;;https://evil.example\u001b\\link\u001b[31mred\u202e\rX";

function assertInert(text: string): void {
  for (const raw of ["\u001b[2J", "\u001b]", "\u0007", "\u202e", "\r"]) expect(text).not.toContain(raw);
  expect(text).toContain("\\x1b[2J");
  expect(text).toContain("\\x1b]0;pwned\\x07");
  expect(text).toContain("\\u202e");
}

describe("escaping control characters", () => {
  it("escapeControl keeps newlines and tabs, escapeInline escapes them too", () => {
    expect(escapeControl("a\tb\nc\u001b[2Jd\u0000")).toBe("a\tb\nc\\x1b[2Jd\\x00");
    expect(escapeInline("a\tb\nc\r")).toBe("a\\tb\\nc\\r");
    expect(escapeControl("plain €😀 text")).toBe("plain €😀 text");
  });

  it("bidi controls, zero-width characters and the byte order mark are shown, not obeyed", () => {
    const hidden = "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff";
    const visible = "\\u200b\\u200c\\u200d\\u200e\\u200f\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\\ufeff";
    expect(escapeControl(`a${hidden}b`)).toBe(`a${visible}b`);
    expect(escapeInline(`a${hidden}b`)).toBe(`a${visible}b`);
  });

  it("the output sink keeps aop's own colors only", () => {
    expect(sanitizeOutput("\u001b[32mok\u001b[39m \u001b[2J", true)).toBe("\u001b[32mok\u001b[39m \\x1b[2J");
    expect(sanitizeOutput("\u001b[32mok\u001b[39m", false)).toBe("\\x1b[32mok\\x1b[39m");
  });

  it.each([
    ["without colors", { NO_COLOR: "1" }],
    ["with colors", { NO_COLOR: undefined, FORCE_COLOR: "1" }],
  ])("a tool name, a feature title and a progress summary reach the terminal inert (%s)", (_name, env) => {
    const root = tempWorkspace();
    const aop = (...args: string[]) => runCli(["--root", root, "--run-id", "run-esc", ...args], { env });
    expect(aop("feature", "init", "feat_a", "--title", EVIL).code).toBe(0);
    const hookEvent = JSON.stringify({ session_id: "s-esc", transcript_path: "/nowhere", cwd: root, hook_event_name: "PostToolUse", tool_name: EVIL, tool_input: {}, tool_response: {}, tool_use_id: "t1" });
    expect(runCli(["hook", "claude"], { cwd: root, input: hookEvent, env }).code).toBe(0);
    expect(aop("checkpoint", "update", "builder", `--progress_summary=${EVIL}`, "--next_actions+=ship it").code).toBe(0);
    for (const args of [["feature", "list"], ["feature", "show", "feat_a"], ["checkpoint", "status"], ["checkpoint", "resume", "builder"]]) {
      const r = aop(...args);
      expect(r.code, args.join(" ")).toBe(0);
      assertInert(r.stdout);
    }
    const replay = runCli(["--root", root, "replay", "--run-id", "claude-s-esc"], { env });
    expect(replay.code).toBe(0);
    assertInert(replay.stdout);
    // Injected colors are escaped as well: only aop's own color codes reach the terminal.
    expect(replay.stdout).not.toContain("\u001b[31mred");
  });

  it("a checkpoint file name with newlines forges no finding: one line per finding in doctor and checkpoint validate", () => {
    const root = tempWorkspace();
    const forged = "x\nCRITICAL  FORGED_001  all good";
    fs.mkdirSync(path.join(root, ".checkpoints"));
    fs.writeFileSync(path.join(root, ".checkpoints", `${forged}.checkpoint.json`), "{}");
    const doctor = runCli(["--root", root, "doctor"]);
    const doctorLines = doctor.stdout.split("\n");
    expect(doctorLines.filter((l) => /^(CRITICAL|WARNING|INFO) /.test(l))).toEqual([expect.stringMatching(/^WARNING +CKPT_001_VALIDATION_ERRORS +x\\nCRITICAL {2}FORGED_001 {2}all good\.checkpoint\.json: /)]);
    expect(doctorLines.some((l) => l.startsWith("CRITICAL"))).toBe(false);

    const validate = runCli(["--root", root, "checkpoint", "validate"]);
    expect(validate.code).toBe(1);
    const validateLines = validate.stdout.split("\n");
    expect(validateLines.filter((l) => l.startsWith("✗ "))).toEqual(["✗ x\\nCRITICAL  FORGED_001  all good.checkpoint.json"]);
    expect(validateLines.some((l) => l.startsWith("CRITICAL"))).toBe(false);
  });

  it("JSON output carries the text unchanged", () => {
    const root = tempWorkspace();
    expect(runCli(["--root", root, "feature", "init", "feat_a", "--title", EVIL]).code).toBe(0);
    const r = runCli(["--root", root, "feature", "show", "feat_a", "--json"]);
    expect(JSON.parse(r.stdout).feature.title).toBe(EVIL);
  });

  it("an error message quoting agent text is escaped too", () => {
    const root = tempWorkspace();
    const r = runCli(["--root", root, "feature", "show", `x\u001b[2J`]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain("\u001b[2J");
  });
});
