// `aop --help` (also `aop -h`, `aop help` and a bare `aop`): the program's help, printed by the very
// program `main` builds, from a one-file bundle started from V8's cached bytecode (bin/aop.js,
// scripts/bundle-bins.mjs). These command lines name no command, so no command module is loaded; the
// bundle holds none.
import { buildProgram } from "./main.js";
import { runProgram } from "./run-program.js";

const HELP_LINES = [[], ["--help"], ["-h"], ["help"]];

export function isProgramHelp(argv: readonly string[]): boolean {
  return HELP_LINES.some((line) => line.length === argv.length && line.every((word, i) => argv[i] === word));
}

/** Prints the program's help when argv asks for exactly that; false when the full program must handle argv. */
export async function tryFastHelp(argv: string[]): Promise<boolean> {
  if (!isProgramHelp(argv)) return false;
  const program = await buildProgram(argv, (name) => Promise.reject(new Error(`the help route has no module for \`${name}\``)));
  await runProgram(program, argv);
  return true;
}
