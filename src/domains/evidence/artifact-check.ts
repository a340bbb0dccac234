// One chain entry's files: its gate evidence file against the chained hash, then each step log the file
// names against the hash it records. Pure over a file reader.
import { sha256Of } from "../../core/hash.js";
import { isRefused, mismatch, missing, type Failure, type Refused } from "./chain-failure.js";
import { stepLogRefs, type LogRef } from "./step-log-refs.js";

/**
 * Reads workspace-relative files; null when the file is missing or lies outside the workspace root, a
 * refusal when it is not one the reader trusts. The bytes `read` returns may be reused by the next
 * `read` or `hash` call (the verifier consumes them at once).
 */
export interface EvidenceFileReader {
  read(relPath: string): Uint8Array | null | Refused;
  hash(relPath: string): string | null | Refused;
}

/** What the walk needs of an entry to check its files. */
export interface ArtifactRef {
  artifact_rel_path: string;
  artifact_hash: string;
}

/** The entry's step logs when the artifact and every log verify, else the failure. */
export function checkArtifact(files: EvidenceFileReader, entry: ArtifactRef, sequence: number): Failure | LogRef[] {
  const bytes = files.read(entry.artifact_rel_path);
  if (bytes === null) return missing(sequence, `evidence file of entry ${sequence} is missing`, entry.artifact_rel_path);
  if (isRefused(bytes)) return missing(sequence, `evidence file of entry ${sequence} ${bytes.refused}`, entry.artifact_rel_path);
  const actual = sha256Of(bytes);
  if (actual !== entry.artifact_hash) {
    return mismatch(sequence, `evidence file of entry ${sequence} was modified after it was chained`, entry.artifact_rel_path, entry.artifact_hash, actual);
  }
  const logs = stepLogRefs(bytes);
  for (const log of logs) {
    const logHash = files.hash(log.log_path);
    if (logHash === null) return missing(sequence, `step log of entry ${sequence} is missing`, log.log_path);
    if (isRefused(logHash)) return missing(sequence, `step log of entry ${sequence} ${logHash.refused}`, log.log_path);
    if (logHash !== log.log_sha256) {
      return mismatch(sequence, `step log of entry ${sequence} was modified after its evidence was written`, log.log_path, typeof log.log_sha256 === "string" ? log.log_sha256 : null, logHash);
    }
  }
  return logs;
}
