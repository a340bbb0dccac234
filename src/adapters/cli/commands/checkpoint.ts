// aop checkpoint <sub>: Checkpoint Protocol 1.0 (DESIGN §8). The subcommands are shared with the `checkpoint` bin.
import type { Command } from "commander";
import { CHECKPOINT_DIR_OPTION, defineCheckpointCommands } from "../checkpoint/define-commands.js";
import { examples } from "../run-command.js";

export function register(program: Command, summary: string): void {
  const group = program
    .command("checkpoint")
    .description(summary)
    .option(...CHECKPOINT_DIR_OPTION)
    .addHelpText("after", examples("aop checkpoint status", "aop checkpoint resume architect", "aop checkpoint validate --strict"));
  defineCheckpointCommands(group, "aop checkpoint");
}
