// Flags are declared once, as data: commander builds its options from these declarations, and the
// commander-free fast paths (the `checkpoint validate` route, the `continuity-doctor` bin) parse argv
// with node:util.parseArgs from the same ones, so both routes accept exactly the same command lines.
import { parseArgs } from "node:util";
import type { Command } from "commander";
import { AopError } from "../../core/errors.js";

export interface FlagSpec {
  /** The long flag without dashes; its option key is the camel-cased form (`all-agents` → `allAgents`). */
  flag: string;
  /** `<name>` when the flag takes a value. */
  value?: string;
  repeatable?: boolean;
  /** A value flag's default, shown in --help. */
  default?: string;
  description: string;
}

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
    if (spec.repeatable) command.option(flags, spec.description, collect);
    else if (spec.default !== undefined) command.option(flags, spec.description, spec.default);
    else command.option(flags, spec.description);
  }
  return command;
}

export interface ParsedLine {
  /** Options by their commander key (camel-cased). */
  opts: Record<string, unknown>;
  positionals: string[];
  /** For each option key, the index (among all tokens) of its first occurrence. */
  at: Map<string, number>;
  /** Index (among all tokens) of each positional. */
  positionalAt: number[];
}

/**
 * argv parsed strictly against `specs`, or undefined for anything a fast path must leave to commander
 * (unknown or malformed flags, a missing value, a value that looks like a flag: commander words
 * those mistakes better).
 */
export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[], allowPositionals = false): ParsedLine | undefined {
  const options = Object.fromEntries(specs.map((s) => [s.flag, { type: s.value ? ("string" as const) : ("boolean" as const), multiple: s.repeatable === true }]));
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof options; strict: true; allowPositionals: boolean; tokens: true }>>;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals, tokens: true });
  } catch {
    return undefined;
  }
  const opts: Record<string, unknown> = {};
  const at = new Map<string, number>();
  const positionals: string[] = [];
  const positionalAt: number[] = [];
  for (const token of parsed.tokens) {
    if (token.kind === "positional") {
      positionals.push(token.value);
      positionalAt.push(token.index);
    } else if (token.kind === "option") {
      const value = token.value;
      if (value !== undefined && (value === "" || value.startsWith("-"))) return undefined;
      if (!at.has(optionKey(token.name))) at.set(optionKey(token.name), token.index);
    } else return undefined; // `--`: leave it to commander
  }
  for (const [name, value] of Object.entries(parsed.values)) opts[optionKey(name)] = value;
  return { opts, positionals, at, positionalAt };
}

/**
 * The options of a commander-free route for the command `words` (e.g. `evidence verify`), or undefined
 * for anything that must go through commander: the program's flags anywhere, the command's own only
 * after its last word (commander's rule), no other positional, and `--transport inprocess` at most (the
 * routes call their tools in this process).
 */
export function parseRouteFlags(argv: readonly string[], words: readonly string[], programFlags: readonly FlagSpec[], commandFlags: readonly FlagSpec[]): Record<string, unknown> | undefined {
  const line = parseFlags(argv, [...programFlags, ...commandFlags], true);
  if (!line || line.positionals.length !== words.length || line.positionals.some((p, i) => p !== words[i])) return undefined;
  const command = line.positionalAt[words.length - 1]!;
  if (commandFlags.some((f) => (line.at.get(optionKey(f.flag)) ?? Infinity) < command)) return undefined;
  if (line.opts.transport !== undefined && line.opts.transport !== "inprocess") return undefined;
  return line.opts;
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
