// aop completion bash|zsh|fish: a completion script for aop and its two other bins, generated from the
// commands themselves (completion/table.ts), so it lists what this version of aop takes.
import type { Command } from "commander";
import type { CompletionEntry } from "../completion/table.js";
import { examples, runCommand, usageError } from "../program/run-command.js";
import { readPackageVersion } from "../program/version.js";

const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = (typeof SHELLS)[number];

export function register(program: Command, summary: string): void {
  program
    .command("completion")
    .description(summary)
    .argument("<shell>", SHELLS.join(" | "))
    .addHelpText(
      "after",
      "\nThe script completes aop, checkpoint and continuity-doctor: commands, options and the values of options\nthat take folders, files or fixed words.\n" +
        examples("source <(aop completion bash)", "aop completion zsh > ~/.zfunc/_aop", "aop completion fish > ~/.config/fish/completions/aop.fish"),
    )
    .action(
      runCommand(async (_ctx, _opts, shell: string) => {
        if (!(SHELLS as readonly string[]).includes(shell)) throw usageError(`the shell must be one of ${SHELLS.join(", ")} (got '${shell}')`);
        const { buildCheckpointProgram } = await import("../program/checkpoint-program.js");
        const { buildContinuityDoctorProgram } = await import("../program/continuity-doctor-program.js");
        const { completionTable } = await import("../completion/table.js");
        const entries = [
          // `program` holds every command in full when this one runs (command-registry.ts).
          ...completionTable(program, "aop"),
          ...completionTable(buildCheckpointProgram(), "checkpoint"),
          ...completionTable(buildContinuityDoctorProgram(), "continuity-doctor"),
        ];
        const { writeStdout } = await import("../../stdout.js");
        writeStdout(await script(shell as Shell, entries));
      }),
    );
}

async function script(shell: Shell, entries: readonly CompletionEntry[]): Promise<string> {
  const bins = ["aop", "checkpoint", "continuity-doctor"];
  const version = readPackageVersion();
  if (shell === "bash") return (await import("../completion/bash.js")).bashScript(entries, bins, version);
  if (shell === "zsh") return (await import("../completion/zsh.js")).zshScript(entries, bins, version);
  return (await import("../completion/fish.js")).fishScript(entries, bins, version);
}
