// What an anchor does to refs/aop/anchors, decided from what the ref holds (pure). The ref's history must
// be monotonic per feature: a process that lost the race to a newer anchor of the same feature must not
// commit its older note on top (the ref would move back to fewer entries than anchors.jsonl holds).
import { parseNote } from "./signed-note.js";
import { parseCheckpoint } from "./tlog-checkpoint.js";

/** A note at most this big is read back from the ref to learn its tree size; ours are ~200 bytes. */
export const MAX_HELD_NOTE_BYTES = 64 * 1024;

export interface TreeEntry {
  mode: string;
  type: string;
  object: string;
  /** Size in bytes (blobs, from `ls-tree -l`), or null. */
  size: number | null;
  name: string;
}

/** The entries of `git ls-tree -z -l` output. */
export function parseTreeListing(listing: string): TreeEntry[] {
  return listing
    .split("\0")
    .filter((e) => e !== "")
    .map((e) => {
      const tab = e.indexOf("\t");
      const [mode = "", type = "", object = "", size = "-"] = e.slice(0, tab).split(/ +/);
      return { mode, type, object, size: /^\d+$/.test(size) ? Number(size) : null, name: e.slice(tab + 1) };
    });
}

/** `git mktree -z` input for `entries`. */
export function mktreeInput(entries: readonly TreeEntry[]): string {
  return entries.map((e) => `${e.mode} ${e.type} ${e.object}\t${e.name}\0`).join("");
}

/** The tree size of a signed tlog-checkpoint note, or null when `note` is not one. */
export function noteTreeSize(note: string): number | null {
  const parsed = parseNote(note);
  if (typeof parsed === "string") return null;
  const checkpoint = parseCheckpoint(parsed.text);
  return typeof checkpoint === "string" ? null : checkpoint.size;
}

/**
 * - `current`: the ref holds this very note;
 * - `covered`: it holds a note of this feature over as many entries or more (a concurrent anchor got
 *   there first): committing ours would move the ref back;
 * - `write`: it holds none, or an older one, or one that is no checkpoint at all.
 */
export type NotePlan = "current" | "covered" | "write";

export function planNote(held: { object: string; note: string | null } | null, mine: { object: string; treeSize: number }): NotePlan {
  if (held === null) return "write";
  if (held.object === mine.object) return "current";
  const size = held.note === null ? null : noteTreeSize(held.note);
  return size !== null && size >= mine.treeSize ? "covered" : "write";
}

/** How long to wait before attempt `attempt` (1-based) after a lost compare-and-swap: growing, jittered. */
export function backoffMs(attempt: number, random: number): number {
  return Math.round(random * 10 * Math.min(attempt, 10));
}
