// Effects of a mutating tool call, noted before they happen (docs/kernel.md, "Crash safety"): the store's
// writers (atomic write, exclusive create, JSONL append, move) tell the call's sink what they are about to
// do, with hashes that let a later process tell whether each effect reached the disk.
// Outside a mutating call there is no sink and noting costs one lookup.
import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import { sha256Of } from "../core/hash.js";
import { sha256FileOrNull } from "./file-hash.js";
import { openRegularFile } from "./read-text-bounded.js";

/** `before`/`hash` values: a content hash, null for "no file", or a marker for what is not a regular file. */
export type FileStamp = string | null;

export type EffectNote =
  | { kind: "write"; path: string; before: FileStamp; after: string }
  | { kind: "create"; path: string; after: string }
  | { kind: "append"; path: string; offset: number; bytes: number; after: string }
  | { kind: "move"; from: string; to: string; hash: FileStamp }
  /** A file the call creates for itself (a gate's step log): removed when the call is run again. */
  | { kind: "scratch"; path: string };

export interface EffectSink {
  note(effect: EffectNote): void;
}

const storage = new AsyncLocalStorage<EffectSink>();
let activeSinks = 0;

/**
 * Run `fn` with `sink` receiving the effects of every store write it makes. The async context is tracked
 * only while a mutating call is in flight (then disabled again), so read-only calls pay nothing for it.
 */
export async function withEffectSink<T>(sink: EffectSink, fn: () => Promise<T>): Promise<T> {
  activeSinks += 1;
  try {
    return await storage.run(sink, fn);
  } finally {
    activeSinks -= 1;
    if (activeSinks === 0) storage.disable();
  }
}

function currentSink(): EffectSink | undefined {
  return activeSinks === 0 ? undefined : storage.getStore();
}

// Files above this size are stamped by size and mtime instead of hashed (never the case for aop's own files).
const HASH_LIMIT = 64 * 1024 * 1024;

/** What `file` holds now, in the form effects are noted with. */
export function fileStamp(file: string): FileStamp {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return null;
  }
  if (!stat.isFile()) return `special:${stat.isDirectory() ? "directory" : stat.isSymbolicLink() ? "symlink" : "other"}`;
  if (stat.size > HASH_LIMIT) return `size:${stat.size}:${stat.mtimeMs}`;
  try {
    // The store's reader: never through a folder link out of the workspace, never from a swapped-in FIFO.
    return sha256FileOrNull(file, { maxBytes: HASH_LIMIT }) ?? null;
  } catch {
    return "special:unreadable";
  }
}

export function noteWrite(file: string, data: string | Uint8Array): void {
  const sink = currentSink();
  if (sink) sink.note({ kind: "write", path: file, before: fileStamp(file), after: sha256Of(data) });
}

export function noteCreate(file: string, data: string | Uint8Array): void {
  const sink = currentSink();
  if (sink) sink.note({ kind: "create", path: file, after: sha256Of(data) });
}

/** Call with the file opened for appending: the line will land at the file's current end. */
export function noteAppend(file: string, fd: number, line: string): void {
  const sink = currentSink();
  if (sink) sink.note({ kind: "append", path: file, offset: fs.fstatSync(fd).size, bytes: Buffer.byteLength(line), after: sha256Of(line) });
}

export function noteMove(from: string, to: string): void {
  const sink = currentSink();
  if (sink) sink.note({ kind: "move", from, to, hash: fileStamp(from) });
}

export function noteScratch(file: string): void {
  currentSink()?.note({ kind: "scratch", path: file });
}

export type EffectState = "applied" | "not_applied" | "changed_since";

function bytesAt(file: string, offset: number, length: number): Buffer | null {
  const opened = openRegularFile(file);
  if (opened.status !== "ok") return null;
  const { fd } = opened;
  try {
    const buffer = Buffer.alloc(length);
    const n = fs.readSync(fd, buffer, 0, length, offset);
    return buffer.subarray(0, n);
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Whether a noted effect reached the disk, judged from the files as they are now. `changed_since`: the
 * file holds neither the old nor the new content (something else wrote it since), so nobody can tell.
 */
export function effectState(effect: EffectNote): EffectState {
  switch (effect.kind) {
    case "write": {
      const now = fileStamp(effect.path);
      if (now === effect.before) return "not_applied"; // also a write that changed nothing
      return now === effect.after ? "applied" : "changed_since";
    }
    case "create": {
      const now = fileStamp(effect.path);
      if (now === null) return "not_applied";
      return now === effect.after ? "applied" : "changed_since";
    }
    case "append": {
      // Appends happen under the file's lock, so ours started exactly at `offset`; a torn fragment of it
      // is not an entry (readers skip it, the next appender cuts it off).
      const found = bytesAt(effect.path, effect.offset, effect.bytes);
      if (found === null || found.length < effect.bytes) return "not_applied";
      return sha256Of(found) === effect.after ? "applied" : "not_applied";
    }
    case "move": {
      const source = fileStamp(effect.from);
      const target = fileStamp(effect.to);
      if (source === effect.hash && target === null) return "not_applied";
      return source === null && target === effect.hash ? "applied" : "changed_since";
    }
    case "scratch":
      return "not_applied";
  }
}

/** The file an effect is about (the target of a move). */
export function effectPath(effect: EffectNote): string {
  return effect.kind === "move" ? effect.to : effect.path;
}
