// `aop completion bash|zsh|fish`: each script is loaded into its real shell and asked what completes a
// command line — bash through its completion function (COMP_WORDS in, COMPREPLY out), fish through
// `complete -C`, zsh with its completion builtins (_describe, compadd, _files) recording what they are
// handed, since they only run inside an interactive line editor. What every command path offers is
// compared with the subcommands its own help lists (read from the CLI's program in this process, checked
// against `aop … --help` for a few paths).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../../src/adapters/cli/main.js";
import { listedSubcommands, runCli } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/tmp.js";

const has = (shell: string) => spawnSync(shell, ["-c", "exit 0"]).status === 0;

function scriptFile(shell: string): string {
  const r = runCli(["completion", shell]);
  expect(r, r.stderr).toMatchObject({ code: 0, stderr: "" });
  const file = path.join(tempDir("aop-completion-"), `aop.${shell}`);
  fs.writeFileSync(file, r.stdout);
  return file;
}

/** A folder with a few entries, the cwd of the shells (file and folder completion). */
function filesHere(): string {
  const dir = tempDir("aop-completion-cwd-");
  fs.mkdirSync(path.join(dir, "reports"));
  fs.writeFileSync(path.join(dir, "readme.txt"), "");
  return dir;
}

const BASH_DRIVER = `source "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
_aop_completion "\${COMP_WORDS[0]}"
printf '%s\\n' "\${COMPREPLY[@]}"`;

/** What bash offers for the words typed so far (the last one being completed). */
function bashComplete(script: string, words: string[], cwd: string): string[] {
  const r = spawnSync("bash", ["--norc", "-c", BASH_DRIVER, "bash", script, ...words], { cwd, encoding: "utf8" });
  expect(r.stderr).toBe("");
  return r.stdout.split("\n").filter((l) => l !== "");
}

describe("aop completion", () => {
  it("bash: the script registers aop, checkpoint and continuity-doctor, and COMPREPLY holds what may follow", () => {
    const script = scriptFile("bash");
    const cwd = filesHere();
    const registered = spawnSync("bash", ["--norc", "-c", `source "$1"; complete -p aop checkpoint continuity-doctor`, "bash", script], { encoding: "utf8" });
    expect(registered.stdout).toBe(["aop", "checkpoint", "continuity-doctor"].map((bin) => `complete -F _aop_completion ${bin}\n`).join(""));
    const cases: [string[], string[]][] = [
      [["aop", "ev"], ["evidence"]],
      [["aop", "evidence", "v"], ["verify"]],
      [["aop", "--json", "evidence", "v"], ["verify"]],
      [["aop", "--root", "reports", "evidence", "v"], ["verify"]],
      [["aop", "evidence", "verify", "--a"], ["--all", "--anchor", "--actor"]],
      [["aop", "--transport", ""], ["inprocess", "mcp"]],
      [["aop", "doctor", "--actor", "q"], ["qa"]],
      [["aop", "doctor", "--only", ""], ["checkpoint", "continuity", "drift"]],
      [["aop", "--root", "re"], ["reports"]],
      [["aop", "report", "--out", "re"], ["readme.txt", "reports"]],
      [["aop", "completion", ""], ["bash", "zsh", "fish"]],
      [["aop", "feature", "set-status", "re"], ["readme.txt", "reports"]],
      [["checkpoint", "st"], ["status"]],
      [["checkpoint", "status", "--d"], ["--dir"]],
      [["continuity-doctor", "--w"], ["--workspace"]],
      [["/usr/local/bin/aop", "ini"], ["init"]],
    ];
    for (const [words, expected] of cases) expect(bashComplete(script, words, cwd).sort(), words.join(" ")).toEqual([...expected].sort());
  });

  it("bash: every command path offers the subcommands its --help lists, and its options", async () => {
    const script = scriptFile("bash");
    const cwd = filesHere();
    // Each command's help from the program the CLI builds for `aop completion` (every command in full),
    // in this process: `aop <path> --help` prints the same, as the paths checked against it below show.
    const program = await buildProgram(["completion"]);
    const subcommand = (command: Command, name: string) => command.commands.find((sub) => sub.name() === name)!;
    for (const argv of [[], ["evidence"], ["checkpoint"], ["sync"]]) {
      const command = argv.reduce(subcommand, program);
      expect(listedSubcommands(command.helpInformation()), `aop ${argv.join(" ")}`).toEqual(listedSubcommands(runCli([...argv, "--help"]).stdout));
    }
    let paths = 0;
    const walk = (command: Command, argv: string[]) => {
      const listed = listedSubcommands(command.helpInformation());
      if (listed.length === 0) return;
      paths += 1;
      expect(bashComplete(script, ["aop", ...argv, ""], cwd).sort(), `aop ${argv.join(" ")}`).toEqual([...listed].sort());
      expect(bashComplete(script, ["aop", ...argv, "--"], cwd), `aop ${argv.join(" ")} --`).toEqual(expect.arrayContaining(["--help", "--root", "--json"]));
      for (const sub of listed) if (sub !== "help") walk(subcommand(command, sub), [...argv, sub]);
    };
    walk(program, []);
    expect(paths).toBeGreaterThan(10);
  });

  it.skipIf(!has("fish"))("fish: `complete -C` offers words and options with their descriptions, and folders for a folder", () => {
    const script = scriptFile("fish");
    const cwd = filesHere();
    const complete = (line: string) => {
      const r = spawnSync("fish", ["--no-config", "-c", `source $argv[1]; complete -C"$argv[2]"`, script, line], { cwd, encoding: "utf8" });
      expect(r.stderr).toBe("");
      return r.stdout.split("\n").filter((l) => l !== "");
    };
    expect(complete("aop ev")).toEqual(["evidence\tshow, verify, attest, anchor and prove gate evidence"]);
    expect(complete("aop --json evidence ve")).toEqual([expect.stringMatching(/^verify\t/)]);
    expect(complete("aop evidence verify --al")).toEqual(["--all\tevery feature that has a chain"]);
    expect(complete("aop --transport ")).toEqual(["inprocess", "mcp"]);
    expect(complete("aop --root re")).toEqual([expect.stringMatching(/^reports\//)]);
    expect(complete("aop completion ").map((l) => l.split("\t")[0])).toEqual(["bash", "fish", "zsh"]);
    expect(complete("checkpoint status --b")).toEqual(["--brief\tonly the decisions and the table"]);
    expect(complete("continuity-doctor --w")).toEqual([expect.stringMatching(/^--workspace\t/)]);
  });

  it.skipIf(!has("zsh"))("zsh: the script loads with compdef for the three bins and hands _describe, compadd and _files what may follow", () => {
    const script = scriptFile("zsh");
    const stubs = `compdef() { print -r -- "compdef $*" }
      _describe() { local list=\${@[-1]}; print -rl -- "describe $2" "\${(@P)list}" }
      compadd() { local list=\${@[-1]}; print -rl -- "compadd" "\${(@P)list}" }
      _files() { print -r -- "files $*" }
      _message() { print -r -- "message $*" }`;
    const complete = (words: string[]) => {
      const r = spawnSync("zsh", ["-f", "-c", `${stubs}\nsource $1; shift; words=("$@"); CURRENT=$#words; _aop`, "zsh", script, ...words], { encoding: "utf8" });
      expect(r.stderr).toBe("");
      return r.stdout.split("\n").filter((l) => l !== "" && !l.startsWith("compdef "));
    };
    const loaded = spawnSync("zsh", ["-f", "-c", `${stubs}\nsource $1`, "zsh", script], { encoding: "utf8" });
    expect(loaded.stdout).toBe("compdef _aop aop checkpoint continuity-doctor\n");
    expect(complete(["aop", "ev"])).toEqual(expect.arrayContaining(["describe commands", "evidence:show, verify, attest, anchor and prove gate evidence"]));
    expect(complete(["aop", "--json", "evidence", "v"])).toEqual(expect.arrayContaining(["describe commands", expect.stringMatching(/^verify:/)]));
    expect(complete(["aop", "evidence", "verify", "--"])).toEqual(expect.arrayContaining(["describe options", "--all:every feature that has a chain"]));
    expect(complete(["aop", "--transport", ""])).toEqual(["compadd", "inprocess", "mcp"]);
    expect(complete(["aop", "--root", ""])).toEqual(["files -/"]);
    expect(complete(["aop", "report", "--out", ""])).toEqual(["files "]);
    expect(complete(["checkpoint", "status", "--"])).toEqual(expect.arrayContaining(["describe options", "--dir:checkpoints folder (default: <root>/.checkpoints)"]));
  });

  it("an unknown shell is a usage error naming the three", () => {
    expect(runCli(["completion", "powershell"])).toMatchObject({ code: 2, stdout: "", stderr: "error usage_error: the shell must be one of bash, zsh, fish (got 'powershell')\n" });
  });
});
