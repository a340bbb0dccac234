// Small renderings shared by the checkpoint subcommands' human output.
import type { CheckpointProblem } from "../../../domains/checkpoints/index.js";
import type { Style } from "./style.js";
import { escapeInline } from "./escape.js";

export function problemLine(kind: "error" | "warning" | "hint", problem: CheckpointProblem, style: Style): string {
  const tag = kind === "error" ? style.red("error  ") : kind === "warning" ? style.yellow("warning") : style.dim("hint   ");
  return `    ${tag} ${problem.path === "" ? "(file)" : escapeInline(problem.path)}: ${escapeInline(problem.message)}`;
}

/** `2026-03-01T09:30:00.000Z` → `2026-03-01 09:30Z`: enough for a table. */
export function shortTime(iso: string | null): string {
  if (iso === null) return "-";
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]}Z` : iso;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Where the folder is, relative to the workspace when inside it. */
export function folderLabel(relative: string, absolute: string): string {
  return relative.startsWith("..") ? absolute : relative + "/";
}
