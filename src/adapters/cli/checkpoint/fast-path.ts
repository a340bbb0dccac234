// A commander-free route for `checkpoint validate …`, which git hooks and CI run on every commit.
// It only recognises the flags; the body is the same validate module every route runs. Anything else
// (help, other subcommands, unknown or malformed flags) returns null and goes through the full program.
// The bins run it from a one-file bundle of this module and its imports (scripts/bundle-bins.mjs).
import type { GlobalOptions } from "../context.js";

export interface FastValidate {
  opts: Record<string, unknown> & GlobalOptions;
}

const BOOLEAN_FLAGS: Record<string, string> = { "--json": "json", "--strict": "strict" };
const VALUE_FLAGS: Record<string, string> = { "--dir": "dir", "--root": "root" };

export function parseFastValidate(argv: readonly string[]): FastValidate | null {
  const opts: Record<string, unknown> = {};
  let sawCommand = false;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    const eq = token.indexOf("=");
    const name = eq > 0 ? token.slice(0, eq) : token;
    if (BOOLEAN_FLAGS[token]) opts[BOOLEAN_FLAGS[token]] = true;
    else if (VALUE_FLAGS[name]) {
      const value = eq > 0 ? token.slice(eq + 1) : argv[++i];
      if (value === undefined || value === "" || (eq < 0 && value.startsWith("-"))) return null;
      opts[VALUE_FLAGS[name]] = value;
    } else if (token === "validate" && !sawCommand) sawCommand = true;
    else return null;
  }
  return sawCommand ? { opts } : null;
}

/** Runs `validate` when argv is a plain validate call; false when the full program must handle it. */
export async function tryFastValidate(argv: readonly string[]): Promise<boolean> {
  const fast = parseFastValidate(argv);
  if (!fast) return false;
  const [{ runBody }, { run }] = await Promise.all([import("../run-command.js"), import("./validate.js")]);
  await runBody(run, fast.opts, [], { checkpointsDirOption: "dir", rootMarkers: [".checkpoints"] });
  return true;
}
