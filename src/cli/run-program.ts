// Parses argv with a commander program and maps commander's own errors (unknown option, missing
// value) to the usage-error contract: `error usage_error: …` + hint, or the JSON envelope; exit 2.
import { CommanderError, type Command } from "commander";
import { reportError, usageError } from "./run-command.js";
import { EXIT_USAGE } from "./exit-codes.js";

function applyExitOverride(command: Command): void {
  command.exitOverride();
  command.configureOutput({ outputError: () => undefined });
  for (const sub of command.commands) applyExitOverride(sub);
}

export async function runProgram(program: Command, argv: string[]): Promise<void> {
  applyExitOverride(program);
  const json = argv.includes("--json");
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") {
        process.exitCode = 0;
        return;
      }
      if (err.code === "commander.executeSubCommandAsync") return;
      const message = err.message.replace(/^error: /, "");
      const hint = err.code === "commander.unknownCommand" ? `run \`${program.name()} --help\` for the list of commands` : "add --help to the command for its usage";
      process.exitCode = reportError(usageError(message, hint), json);
      if (process.exitCode !== EXIT_USAGE) process.exitCode = EXIT_USAGE;
      return;
    }
    process.exitCode = reportError(err, json);
  }
}
