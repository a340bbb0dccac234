// The `checkpoint` bin as a commander program: the subcommands of `aop checkpoint` (declared once, in
// checkpoint/define-commands.ts) under a program named after the bin, without the rest of `aop`.
import type { Command } from "commander";
import { Command as Program } from "../commander-vendor.js";
import { CHECKPOINT_PROGRAM_FLAGS, defineCheckpointCommands } from "../checkpoint/define-commands.js";
import { addFlags } from "../flags/flags.js";
import { examples } from "./run-command.js";
import { readPackageVersion } from "./version.js";

export function buildCheckpointProgram(): Command {
  const program = addFlags(
    new Program("checkpoint")
      .description("Checkpoint Protocol 1.0: validate, rank, update and resume .checkpoints/<skill>.checkpoint.json (same as `aop checkpoint`)")
      .version(readPackageVersion(), "-V, --version", "print the version"),
    CHECKPOINT_PROGRAM_FLAGS,
  )
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    .showSuggestionAfterError(true)
    .addHelpText("after", examples("checkpoint resume architect", "checkpoint status --brief", "checkpoint validate --strict"));
  defineCheckpointCommands(program, "checkpoint");
  return program;
}
