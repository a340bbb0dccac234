// The verifier's file reader over a workspace (artifact-check.ts).
import path from "node:path";
import { AopError } from "../../core/errors.js";
import { readFileShared, sha256FileOrNull } from "../../store/file-hash.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import type { EvidenceFileReader } from "./artifact-check.js";
import type { Refused } from "./chain-failure.js";

/**
 * Reads workspace-relative files for the verifier. Paths that cannot leave the root (relative, no `..`,
 * no backslash) are joined directly; anything else goes through the layout's full check. This runs twice
 * per chain entry, so it is kept cheap. Folders found inside the workspace once (`memo`) are not
 * resolved again for each of their files.
 */
export function workspaceReader(layout: WorkspaceLayout, memo: Set<string>): EvidenceFileReader {
  const prefix = layout.root + path.sep;
  const locate = (rel: string): string | null =>
    rel.length > 0 && !rel.startsWith("/") && !rel.includes("..") && !rel.includes("\\") && !rel.includes("\0") ? prefix + rel : layout.resolveInside(rel);
  return {
    read: (rel) => {
      const file = locate(rel);
      return file === null ? null : refusedAsValue(() => readFileShared(file, { memo }));
    },
    hash: (rel) => {
      const file = locate(rel);
      return file === null ? null : refusedAsValue(() => sha256FileOrNull(file, { memo }));
    },
  };
}

/** A file the store refuses to read (special file, link out, too large, unreadable) as a verification failure, not a crash. */
function refusedAsValue<T>(read: () => T): T | Refused {
  try {
    return read();
  } catch (err) {
    if (err instanceof AopError) return { refused: `${typeof err.details.reason === "string" ? err.details.reason : err.message} [${err.code}]` };
    throw err;
  }
}
