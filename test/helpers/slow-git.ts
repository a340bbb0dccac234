// A `git` that sleeps a random 0..maxDelayMs before running the real one, put first on PATH: it widens
// the window between reading a ref and updating it, so races between processes actually happen. With
// `log`, it appends each call's subcommand to that file.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { tempDir } from "./tmp.js";

export interface SlowGit {
  /** Environment for a child: PATH with the slow git first (and the log file, if any). */
  env: Record<string, string>;
  /** The subcommands run so far (with `log`). */
  calls(): string[];
}

export function slowGit(options: { maxDelayMs: number; log?: boolean }): SlowGit {
  const real = spawnSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).stdout.trim();
  if (!real) throw new Error("git is not on PATH");
  const dir = tempDir("aop-slow-git-");
  const log = path.join(dir, "calls.log");
  const script = [
    "#!/bin/sh",
    options.log ? `echo "$1" >> '${log}'` : "",
    "n=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')",
    `sleep "$(awk -v n="$n" 'BEGIN { printf "%.3f", (n % ${options.maxDelayMs + 1}) / 1000 }')"`,
    `exec '${real}' "$@"`,
    "",
  ].join("\n");
  fs.writeFileSync(path.join(dir, "git"), script, { mode: 0o755 });
  return {
    env: { PATH: `${dir}${path.delimiter}${process.env.PATH ?? ""}` },
    calls: () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter(Boolean) : []),
  };
}
