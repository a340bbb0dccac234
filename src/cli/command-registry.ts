// Every top-level command: its name, a one-line summary for `aop --help`, and how to load it.
// Only the invoked command's module is loaded, so start-up cost does not grow with the command count.
import type { Command } from "commander";

export interface CommandModule {
  register(program: Command, summary: string): void;
}

export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<CommandModule>;
}

export const COMMANDS: CommandEntry[] = [
  { name: "init", summary: "create policy.yaml, gates.yaml and the .aop/ skeleton (idempotent)", load: () => import("./commands/init.js") },
  { name: "config", summary: "validate policy.yaml and gates.yaml", load: () => import("./commands/config.js") },
  { name: "gates", summary: "run a gate mode from gates.yaml and record its evidence", load: () => import("./commands/gates.js") },
  { name: "evidence", summary: "show the newest gate evidence; verify evidence integrity chains", load: () => import("./commands/evidence.js") },
];

/** Global flags that take a value, so their values are not mistaken for a command name. */
const VALUE_FLAGS = new Set(["--root", "--transport", "--run-id", "--session-id", "--actor"]);

/** The command the user asked for (`aop help <cmd>` counts), or undefined. */
export function requestedCommand(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (VALUE_FLAGS.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith("-")) continue;
    if (arg === "help") return argv.slice(i + 1).find((a) => !a.startsWith("-"));
    return arg;
  }
  return undefined;
}
