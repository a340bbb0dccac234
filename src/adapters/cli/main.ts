// The `aop` program: global flags, one registered command per file under cli/commands/.
import { Command } from "./commander-vendor.js";
import { readPackageVersion } from "./version.js";
import { runProgram } from "./run-program.js";
import { AOP_GLOBAL_FLAGS, COMMANDS, requestedCommand, type CommandModule, type CommandName } from "./command-registry.js";
import { addFlags } from "./flags.js";

/** How the program gets a command's module (command-modules.ts; the help route has none to give). */
export type LoadCommand = (name: CommandName) => Promise<CommandModule>;

/** The program with every command: the requested one fully, the others as help stubs. */
export async function buildProgram(argv: string[], load: LoadCommand): Promise<Command> {
  const program = new Command("aop");
  program
    .description("continuity and integrity for AI-agent workflows: checkpoints, replay timeline, evidence chain, doctor")
    .version(readPackageVersion(), "-V, --version", "print the version");
  addFlags(program, AOP_GLOBAL_FLAGS)
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    .addHelpText("after", "\nQuick start:\n  $ aop init\n  $ aop config check\n\nEvery command has --help with an example.\n");
  const wanted = requestedCommand(argv);
  for (const entry of COMMANDS) {
    if (entry.name === wanted) (await load(entry.name)).register(program, entry.summary);
    else program.command(entry.name).description(entry.summary);
  }
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const { COMMAND_MODULES } = await import("./command-modules.js");
  await runProgram(await buildProgram(argv, (name) => COMMAND_MODULES[name]()), argv);
}
