// What a shell may complete after each command path of a program (`aop`, `aop evidence`, `checkpoint`,
// …), read from the commander program the CLI itself runs: its subcommands, its options with those of its
// ancestors (commander takes a parent's options after a subcommand too), and what each option's value is.
// The completion scripts (bash.ts, zsh.ts, fish.ts) are this table in each shell's language.
import type { Command, Option } from "commander";

/** What completes an option's value: folders, files, fixed words, or nothing aop can know. */
type ValueKind = { kind: "dir" } | { kind: "file" } | { kind: "words"; words: readonly string[] } | { kind: "free" };

interface CompletionOption {
  /** `--root`, and `-h` beside `--help`. */
  names: readonly string[];
  description: string;
  value?: ValueKind;
}

export interface CompletionEntry {
  /** The bin and the subcommands, space-separated: `aop evidence verify`. */
  path: string;
  /** Subcommands, and the fixed words of the first argument (`aop completion <shell>`). */
  words: readonly { word: string; description: string }[];
  options: readonly CompletionOption[];
}

/** A description on one line, as short as a completion menu shows it. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= 100 ? flat : `${flat.slice(0, 99)}…`;
}

/**
 * Flags and arguments with fixed values list them in their description as `a | b | c` (the help shows
 * them there), at its start, after a colon or in parentheses: those are the words.
 */
function wordsOf(description: string): readonly string[] | undefined {
  const list = /(?:^|: |\()([a-z][a-z0-9_-]*(?: \| [a-z][a-z0-9_-]*)+)(?=$|[ ),;])/.exec(description);
  return list ? list[1]!.split(" | ") : undefined;
}

function valueOf(option: Option): ValueKind | undefined {
  if (!option.required && !option.optional) return undefined;
  const words = option.argChoices ?? wordsOf(option.description);
  if (words) return { kind: "words", words };
  const placeholder = /<([^>]+)>|\[([^\]]+)\]/.exec(option.flags);
  const name = placeholder?.[1] ?? placeholder?.[2] ?? "";
  if (name === "dir") return { kind: "dir" };
  if (name === "file" || name === "path") return { kind: "file" };
  return { kind: "free" };
}

function optionsOf(command: Command): CompletionOption[] {
  const help = command.createHelp();
  return help.visibleOptions(command).map((option) => {
    const value = valueOf(option);
    return {
      names: [option.long, option.short].filter((n): n is string => n !== undefined),
      description: oneLine(option.description),
      ...(value ? { value } : {}),
    };
  });
}

/** Every command path of `program` (named `bin`), depth first, each with what may follow it. */
export function completionTable(program: Command, bin: string): CompletionEntry[] {
  const entries: CompletionEntry[] = [];
  const walk = (command: Command, path: string, inherited: CompletionOption[]) => {
    const own = optionsOf(command);
    const taken = new Set(own.flatMap((o) => o.names));
    const options = [...own, ...inherited.filter((o) => !o.names.some((n) => taken.has(n)))];
    const subcommands = command.createHelp().visibleCommands(command);
    const words = subcommands.map((sub) => ({ word: sub.name(), description: oneLine(sub.description()) }));
    const first = command.registeredArguments[0];
    const fixed = first ? (first.argChoices ?? wordsOf(first.description)) : undefined;
    for (const word of fixed ?? []) words.push({ word, description: first!.name() });
    entries.push({ path, words, options });
    // A parent's -h/--version belong to it alone; its other options are taken after a subcommand too.
    const passed = options.filter((o) => !o.names.includes("--help") && !o.names.includes("--version"));
    for (const sub of subcommands) if (sub.name() !== "help") walk(sub, `${path} ${sub.name()}`, passed);
  };
  walk(program, bin, []);
  return entries;
}
