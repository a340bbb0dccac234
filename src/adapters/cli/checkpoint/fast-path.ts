// A commander-free route for `checkpoint validate …`, which git hooks and CI run on every commit. It
// parses argv with node:util.parseArgs from the very flag declarations commander builds its options
// from (define-commands.ts), with commander's placement rule: the program's flags anywhere, validate's
// own flags only after `validate`. The body is the same validate module every route runs. Anything
// else (help, other subcommands, unknown, misplaced or malformed flags) returns null and goes through
// the full program, which words the mistake. The bins run it from a one-file bundle of this module and
// its imports (scripts/bundle-bins.mjs).
import type { GlobalOptions } from "../context.js";
import { optionKey, parseFlags } from "../flags.js";
import { CHECKPOINT_PROGRAM_FLAGS, VALIDATE_FLAGS } from "./define-commands.js";

export interface FastValidate {
  opts: Record<string, unknown> & GlobalOptions;
}

const VALIDATE_ONLY = VALIDATE_FLAGS.map((f) => optionKey(f.flag));

export function parseFastValidate(argv: readonly string[]): FastValidate | null {
  const line = parseFlags(argv, [...CHECKPOINT_PROGRAM_FLAGS, ...VALIDATE_FLAGS], true);
  if (!line || line.positionals.length !== 1 || line.positionals[0] !== "validate") return null;
  const command = line.positionalAt[0]!;
  if (VALIDATE_ONLY.some((key) => (line.at.get(key) ?? Infinity) < command)) return null;
  return { opts: line.opts };
}

/** Runs `validate` when argv is a plain validate call; false when the full program must handle it. */
export async function tryFastValidate(argv: readonly string[]): Promise<boolean> {
  const fast = parseFastValidate(argv);
  if (!fast) return false;
  const [{ runBody }, { run }] = await Promise.all([import("../run-command.js"), import("./validate.js")]);
  await runBody(run, fast.opts, [], { checkpointsDirOption: "dir", rootMarkers: [".checkpoints"] });
  return true;
}
