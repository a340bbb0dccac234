// The README's Tour, run as written: every `$ command` of its sessions, in order, on a fresh `aop init`
// workspace, must print the output the Tour shows (modulo times, hashes, sizes and the workspace's path),
// so the README and the product cannot drift apart. Hidden `<!-- tour: … -->` lines are the set-up steps
// a reader is told about in prose (an edited file, a memory file).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI_BIN, REPO_ROOT } from "../../helpers/paths.js";
import { tempDir } from "../../helpers/tmp.js";
import { normalizeTourOutput, parseTour, tourOutputMatches } from "../../helpers/readme-tour.js";

const README = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");

/** A folder whose `aop` runs the built CLI, put first on PATH, so the Tour's commands run as typed. */
function aopOnPath(): string {
  const bin = tempDir("aop-tour-bin-");
  fs.writeFileSync(path.join(bin, "aop"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI_BIN)} "$@"\n`, { mode: 0o755 });
  return bin;
}

function tourEnv(bin: string, home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`, HOME: home, NO_COLOR: "1" };
  for (const key of ["AOP_ROOT", "AOP_RUN_ID", "AOP_SESSION_ID", "AOP_ACTOR", "FORCE_COLOR", "XDG_CONFIG_HOME", "OPENCLAW_STATE_DIR", "AOP_SIGNING_KEY"]) delete env[key];
  for (const key of Object.keys(env)) if (key.startsWith("OTEL_")) delete env[key];
  return env;
}

describe("the README's Tour", () => {
  const steps = parseTour(README);

  it("has sessions to run", () => {
    expect(steps.filter((s) => s.kind === "command").length).toBeGreaterThan(15);
  });

  it("runs in order on a fresh `aop init` and prints what it shows", () => {
    // Under the system temp folder, named like the demo's, so the Tour's paths read naturally.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "aop-tour-"));
    const home = tempDir("aop-tour-home-");
    const env = tourEnv(aopOnPath(), home);
    try {
      for (const step of steps) {
        // Errors and progress go to stderr; a terminal shows both streams as they are written, and so does the Tour.
        const script = step.kind === "command" ? `exec 2>&1\n${step.command}` : step.command;
        const r = spawnSync("/bin/sh", ["-c", script], { cwd: root, env, encoding: "utf8", timeout: 60_000, input: "" });
        if (step.kind === "setup") {
          expect(r.status, `README.md:${step.line} set-up \`${step.command}\` failed: ${r.stderr}`).toBe(0);
          continue;
        }
        const actual = normalizeTourOutput(r.stdout);
        const expected = normalizeTourOutput(step.expected.join("\n"));
        if (!tourOutputMatches(expected, actual)) {
          expect(actual.join("\n"), `README.md:${step.line} \`$ ${step.command}\` prints something else than the Tour shows`).toBe(expected.join("\n"));
        }
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 240_000);
});

describe("parseTour / normalizeTourOutput / tourOutputMatches", () => {
  const readme = [
    "# x",
    "## Tour",
    "```",
    "$ aop init",
    "workspace /tmp/aop-tour-ab12Cd",
    "$ aop feature list",
    "```",
    "```yaml",
    "$ not a command",
    "```",
    "<!-- tour: printf x >> file -->",
    "```",
    "$ aop doctor",
    "…",
    "1 critical",
    "```",
    "## Next",
    "```",
    "$ aop outside",
    "```",
  ].join("\n");

  it("reads sessions and hidden set-up steps of the Tour only, in order", () => {
    expect(parseTour(readme).map((s) => [s.kind, s.command, s.kind === "command" ? s.expected : null])).toEqual([
      ["command", "aop init", ["workspace /tmp/aop-tour-ab12Cd"]],
      ["command", "aop feature list", []],
      ["setup", "printf x >> file", null],
      ["command", "aop doctor", ["…", "1 critical"]],
    ]);
  });

  it("normalizes what may differ between runs, and nothing else", () => {
    expect(normalizeTourOutput("ws /var/tmp/aop-tour-ab12Cd (aop-tour-ab12Cd)  at 2026-12-03T06:12:17.123Z  head sha256:02fdb68fba51…  9ms  \n\n")).toEqual(["ws <root> (<name>) at <ts> head sha256:<hash> <duration>"]);
    expect(normalizeTourOutput("FAIL 1 passed")).not.toEqual(normalizeTourOutput("PASS 1 passed"));
  });

  it("matches line by line, with … standing for any number of lines", () => {
    expect(tourOutputMatches(["a", "…", "z"], ["a", "b", "c", "z"])).toBe(true);
    expect(tourOutputMatches(["a", "…", "z"], ["a", "z"])).toBe(true);
    expect(tourOutputMatches(["a", "z"], ["a", "b", "z"])).toBe(false);
    expect(tourOutputMatches(["a"], ["a", "b"])).toBe(false);
  });
});
