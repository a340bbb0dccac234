// A result computed from configuration files' texts (the policy's load, gates.yaml's), kept in a file
// under .aop/runtime/ beside the texts it came from and the build that made it (BUILD_ID: a snapshot
// from another build is not trusted). A process that starts for one event or command (the hook after
// every tool call, each CLI command, the doctor) reads it instead of loading the YAML parser and the
// validators while the files and aop are unchanged (docs/performance.md). The texts themselves are the
// key, so an edit is seen at once whatever the clocks say; a missing, stale, unreadable or foreign
// snapshot only costs the ordinary load.
import fs from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { BUILD_ID } from "../catalog/generated/build-id.js";
import type { WorkspaceLayout } from "../store/layout.js";
import { writeJsonAtomic } from "../store/atomic-write.js";
import { readBytesBounded } from "../store/read-text-bounded.js";
import { READ_LIMITS } from "../store/read-limits.js";

/** Each file's text by the snapshot's name for it (null: no such file). */
export type SnapshotSources = Record<string, string | null>;

/** The snapshot's result when it was made from exactly `sources` by this build, else undefined. */
function keptAnswer(file: string, sources: SnapshotSources): unknown {
  const read = readBytesBounded(file, READ_LIMITS.config * 2);
  if (read.status !== "ok") return undefined;
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(read.bytes.toString("utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object" || value.build !== BUILD_ID || value.result === null || typeof value.result !== "object") return undefined;
  return Object.entries(sources).every(([name, text]) => value[name] === text) ? value.result : undefined;
}

/** A config file's text, null when there is none, undefined when the loader must read it itself (it refuses it). */
export function configText(file: string): string | null | undefined {
  const read = readBytesBounded(file, READ_LIMITS.config);
  if (read.status === "missing") return null;
  return read.status === "ok" ? read.bytes.toString("utf8") : undefined;
}

/**
 * `compute()`'s result for files holding `sources`: from `snapshotFile` when it was made of these very
 * texts by this build, else computed and kept there.
 */
export async function keptResult<T extends object>(layout: WorkspaceLayout, snapshotFile: string, sources: SnapshotSources, compute: () => Promise<T>): Promise<T> {
  const kept = keptAnswer(snapshotFile, sources);
  if (kept !== undefined) return kept as T;
  const result = await compute();
  const snapshot = { build: BUILD_ID, ...sources, result };
  // Kept only where aop already keeps state, and only if JSON holds it exactly.
  if (fs.existsSync(layout.runtimeDir) && isDeepStrictEqual(JSON.parse(JSON.stringify(snapshot)), snapshot)) {
    try {
      writeJsonAtomic(snapshotFile, snapshot, { durable: false });
    } catch {
      // a snapshot is only a shortcut: the next process computes it again
    }
  }
  return result;
}
