// aop checkpoint <sub>: Checkpoint Protocol 1.0 (docs/checkpoints.md). The subcommands are shared with the `checkpoint` bin.
import type { Command } from "commander";
import { CHECKPOINT_DIR_FLAG, defineCheckpointCommands } from "../checkpoint/define-commands.js";
import { addFlags } from "../flags/flags.js";
import { examples } from "../program/run-command.js";

export function register(program: Command, summary: string): void {
  const group = addFlags(program.command("checkpoint").description(summary), [CHECKPOINT_DIR_FLAG])
    .addHelpText("after", examples("aop checkpoint status", "aop checkpoint resume architect", "aop checkpoint validate --strict"));
  defineCheckpointCommands(group, "aop checkpoint");
}
