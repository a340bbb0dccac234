// One chain entry's checks, in the order the walk reports them: the line (JSON, shape, sequence,
// feature, file name, chain hash, link to the entry before), then its files. Pure over a file reader.
import { checkArtifact, type EvidenceFileReader } from "./artifact-check.js";
import { discontinuity, mismatch, type Failure } from "./chain-failure.js";
import { chainEntryProblem, recomputeChainHash, type ChainEntry } from "./chain-hash.js";
import { baseName, parseEvidenceFileName } from "./evidence-names.js";
import type { LogRef } from "./step-log-refs.js";

export interface ChainContext {
  feature_id: string;
  /** Workspace-relative paths of the feature's evidence folder and chain. */
  evidence_dir: string;
  chain_rel_path: string;
}

interface CheckedLine {
  entry: ChainEntry;
  /** The gate file's mode and time, from its name. */
  mode: string;
  epochMs: number;
}

export interface CheckedEntry extends CheckedLine {
  logs: LogRef[];
}

export function isFailure(value: object): value is Failure {
  return "code" in value;
}

/** The line's own checks and its link to the entry before it (`prev`: that entry's chain_hash). */
function checkChainLine(ctx: ChainContext, text: string, sequence: number, prev: string): CheckedLine | Failure {
  const chainPath = ctx.chain_rel_path;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return discontinuity(sequence, `line ${sequence + 1} of the chain is not valid JSON`, chainPath);
  }
  const problem = chainEntryProblem(value);
  if (problem) return discontinuity(sequence, `line ${sequence + 1} of the chain ${problem}`, chainPath);
  const entry = value as ChainEntry;
  if (entry.sequence !== sequence) {
    return discontinuity(sequence, `line ${sequence + 1} carries sequence ${entry.sequence}, expected ${sequence} (an entry was removed, duplicated or moved)`, chainPath);
  }
  if (entry.feature_id !== ctx.feature_id) return discontinuity(sequence, `entry ${sequence} belongs to feature '${entry.feature_id}'`, chainPath);
  const name = parseEvidenceFileName(baseName(entry.artifact_rel_path));
  if (name?.kind !== "gate" || entry.artifact_rel_path !== `${ctx.evidence_dir}/${baseName(entry.artifact_rel_path)}`) {
    return discontinuity(sequence, `entry ${sequence} names '${entry.artifact_rel_path}', which is not a gate evidence file of this feature`, chainPath);
  }
  const recomputed = recomputeChainHash(entry);
  if (recomputed === null) return discontinuity(sequence, `entry ${sequence} holds text that cannot be canonicalized (a lone surrogate)`, chainPath);
  if (recomputed !== entry.chain_hash) {
    return mismatch(sequence, `entry ${sequence} was altered: its chain_hash does not match its contents`, chainPath, entry.chain_hash, recomputed);
  }
  if (entry.prev_chain_hash !== prev) {
    const link = sequence === 0 ? "does not start from the genesis hash" : `does not link to entry ${sequence - 1}: prev_chain_hash differs from its chain_hash`;
    return discontinuity(sequence, `entry ${sequence} ${link}`, chainPath, prev, entry.prev_chain_hash);
  }
  return { entry, mode: name.mode, epochMs: name.epochMs };
}

/** The line's checks, then its files' (artifact-check.ts). */
export function checkChainEntry(ctx: ChainContext, files: EvidenceFileReader, text: string, sequence: number, prev: string): CheckedEntry | Failure {
  const line = checkChainLine(ctx, text, sequence, prev);
  if (isFailure(line)) return line;
  const logs = checkArtifact(files, line.entry, sequence);
  return Array.isArray(logs) ? { ...line, logs } : logs;
}
