// Parses argv with a commander program and maps commander's own failures (unknown command or option,
// missing argument) to usage errors with exit code 2. Shared by `aop` and the `checkpoint` and
// `continuity-doctor` programs.
import type { Command } from "commander";
import { CommanderError } from "../commander-vendor.js";
import { EXIT_USAGE } from "./exit-codes.js";
import { stdoutTarget, writeStdout } from "../../stdout.js";

/** The subcommand of `command` that `word` names (by name or alias), if any. */
function subcommandNamed(command: Command, word: string): Command | undefined {
  return command.commands.find((c) => c.name() === word || c.aliases().includes(word));
}

/** The operand a command made only of subcommands was given that names none of them (commander shows such a command's help for `--help` instead of refusing it). */
function unknownSubcommand(command: Command): string | null {
  if (command.commands.length === 0 || command.registeredArguments.length > 0) return null;
  const operands = command.args.filter((a) => !a.startsWith("-"));
  const name = operands[0] === "help" ? operands[1] : operands[0];
  if (name === undefined) return null;
  return subcommandNamed(command, name) ? null : name;
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

/** The words of argv that name commands, from the program down (`aop feature`). */
function commandPath(program: Command, argv: string[]): string {
  const names = [program.name()];
  let command = program;
  for (const word of argv) {
    const sub = subcommandNamed(command, word);
    if (sub === undefined) continue;
    names.push(sub.name());
    command = sub;
  }
  return names.join(" ");
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
      // A command made only of subcommands, given none: its help is on stderr, and the command line is
      // incomplete (commander's "commander.help" with exit code 1), so a script sees a usage error.
      // The program alone (`aop`) is asking what there is: its help, exit 0.
      const name = err.code === "commander.help" && err.exitCode !== 0 ? commandPath(program, argv) : program.name();
      if (name !== program.name()) {
        reportError(usageError(`\`${name}\` needs a subcommand`, `run \`${name} --help\` for its subcommands`), json);
        process.exitCode = EXIT_USAGE;
        return;
      }
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
