// Parses argv with a commander program and maps commander's own failures (unknown command or option,
// missing argument) to usage errors with exit code 2. Shared by `aop` and the `checkpoint` and
// `continuity-doctor` programs.
import type { Command } from "commander";
import { CommanderError } from "../commander-vendor.js";
import { EXIT_USAGE } from "./exit-codes.js";
import { stdoutTarget, writeStdout } from "../output/stdout.js";

/** The operand a command made only of subcommands was given that names none of them (commander shows such a command's help for `--help` instead of refusing it). */
function unknownSubcommand(command: Command): string | null {
  if (command.commands.length === 0 || command.registeredArguments.length > 0) return null;
  const operands = command.args.filter((a) => !a.startsWith("-"));
  const name = operands[0] === "help" ? operands[1] : operands[0];
  if (name === undefined) return null;
  return command.commands.some((c) => c.name() === name || c.aliases().includes(name)) ? null : name;
}

function refuseUnknownSubcommand(command: Command): void {
  const unknown = unknownSubcommand(command);
  if (unknown !== null) throw new CommanderError(2, "commander.unknownCommand", `unknown command '${unknown}'`);
}

function applyExitOverride(command: Command): void {
  command.exitOverride();
  // Help goes where command output goes (a reader that stops early, `aop --help | head`, is no error).
  // Its width and colors are asked of process.stdout only for a terminal: creating process.stdout for
  // a file or /dev/null loads every stream module, which costs more than the help itself.
  const output = command.configureOutput();
  command.configureOutput({
    outputError: () => undefined,
    // `aop frobnicate --help` and `aop help frobnicate` are the unknown command they name, not the help.
    writeOut: (text: string) => {
      refuseUnknownSubcommand(command);
      writeStdout(text);
    },
    writeErr: (text: string) => {
      refuseUnknownSubcommand(command);
      output.writeErr!(text);
    },
    getOutHasColors: () => stdoutTarget.isTTY && output.getOutHasColors!(),
    getOutHelpWidth: () => (stdoutTarget.isTTY ? output.getOutHelpWidth!() : 80), // commander's own width off a terminal
  });
  for (const sub of command.commands) applyExitOverride(sub);
}

export async function runProgram(program: Command, argv: string[]): Promise<void> {
  applyExitOverride(program);
  const json = argv.includes("--json");
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (err) {
    // Loaded only on failure: `aop --help` and every successful command never pay for it.
    const { reportError, usageError } = await import("./run-command.js");
    if (err instanceof CommanderError) {
      if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") {
        process.exitCode = 0;
        return;
      }
      if (err.code === "commander.executeSubCommandAsync") return;
      const message = err.message.replace(/^error: /, "");
      const hint = err.code === "commander.unknownCommand" ? `run \`${program.name()} --help\` for the list of commands` : "add --help to the command for its usage";
      reportError(usageError(message, hint), json);
      process.exitCode = EXIT_USAGE;
      return;
    }
    process.exitCode = reportError(err, json);
  }
}
