// Flags are declared once, as data, in the file of the command that takes them: commander builds its
// options from the declarations (commander is the one argv parser), and FlagValues types what a
// command's body receives from them.
import type { Command } from "commander";
import { AopError } from "../../../core/errors.js";

export interface FlagSpec {
  /** The long flag without dashes; its option key is the camel-cased form (`all-agents` → `allAgents`). */
  flag: string;
  /** `<name>` when the flag takes a value. */
  value?: string;
  repeatable?: boolean;
  /** A value flag's default, shown in --help. */
  default?: string;
  /** Turns a value flag's text into its value (a usage error when it is not one: see wholeNumberFlag). */
  parse?: (text: string) => unknown;
  description: string;
}

/** `all-agents` → `allAgents`, as a type. */
type OptionKey<F extends string> = F extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<OptionKey<Tail>>}` : F;

type FlagValue<S extends FlagSpec> = S extends { parse: (text: string) => infer V } ? V : S extends { repeatable: true } ? string[] : S extends { value: string } ? string : boolean;

/** What commander hands a body for these declarations (declare them `as const satisfies readonly FlagSpec[]`). */
export type FlagValues<Specs extends readonly FlagSpec[]> = { [S in Specs[number] as OptionKey<S["flag"]>]?: FlagValue<S> };

/** A flag's option key: what commander names its value (`all-agents` → `allAgents`). */
export function optionKey(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Adds each declared flag to a commander command. */
export function addFlags(command: Command, specs: readonly FlagSpec[]): Command {
  for (const spec of specs) {
    const flags = spec.value ? `--${spec.flag} ${spec.value}` : `--${spec.flag}`;
    if (spec.parse) command.option(flags, spec.description, spec.parse);
    else if (spec.repeatable) command.option(flags, spec.description, collect);
    else if (spec.default !== undefined) command.option(flags, spec.description, spec.default);
    else command.option(flags, spec.description);
  }
  return command;
}

const DECIMAL = /^[0-9]+$/;

/**
 * `text` as a whole number when it is decimal digits only, else null. `Number()` alone takes "1e4",
 * "0x4E21", "0b1", " 7 " and "" (0), which made `--port 0x4E21` bind 20001.
 */
export function decimalInteger(text: string): number | null {
  if (!DECIMAL.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

/** The value of a whole-number flag, decimal digits from `min` to `max`; otherwise a usage error naming the flag. */
export function parseWholeNumberFlag(flag: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER, hint?: string): number {
  const n = decimalInteger(text);
  if (n !== null && n >= min && n <= max) return n;
  const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
  throw new AopError("usage_error", `${flag} must be a whole number ${range}, in decimal digits (got '${text.slice(0, 40)}')`, hint === undefined ? {} : { hint });
}

/** The commander argument parser of a whole-number flag (see parseWholeNumberFlag). */
export function wholeNumberFlag(flag: string, min: number, max?: number, hint?: string): (text: string) => number {
  return (text) => parseWholeNumberFlag(flag, text, min, max, hint);
}
