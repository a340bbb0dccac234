// The `checkpoint` bin as a commander program: the same subcommands as `aop checkpoint`, without the
// rest of the aop program. The bin loads it for everything but a plain `checkpoint validate`.
import type { Command } from "commander";

export async function buildCheckpointProgram(): Promise<Command> {
  const [{ Command }, { CHECKPOINT_PROGRAM_FLAGS, defineCheckpointCommands }, { readPackageVersion }, { examples }, { addFlags }] = await Promise.all([
    import("./commander-vendor.js"),
    import("./checkpoint/define-commands.js"),
    import("./version.js"),
    import("./run-command.js"),
    import("./flags.js"),
  ]);
  const program = addFlags(
    new Command("checkpoint")
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

/** The full program (the bin has already tried the commander-free validate route). */
export async function runCheckpointProgram(argv: string[]): Promise<void> {
  const { runProgram } = await import("./run-program.js");
  await runProgram(await buildCheckpointProgram(), argv);
}
