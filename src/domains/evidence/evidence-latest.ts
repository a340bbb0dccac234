// The newest gate evidence of a feature. Only `gate-*.json` and `latest-*.json` are candidates (never the
// chain or the manifest), ranked by the time the evidence records, never by file mtime.
import fs from "node:fs";
import path from "node:path";
import type { Clock } from "../../core/clock.js";
import { AopError, isErrorCode } from "../../core/errors.js";
import { validateId } from "../../core/ids.js";
import { evidenceIntegrityEnabled, type Policy } from "../../config/policy-types.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { describeRefusal, readBytesBounded, refusalCode } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import type { GateEvidence } from "./evidence-types.js";
import { parseEvidenceFileName } from "./evidence-names.js";
import { requireFeatureDir, verifyFeatureChain } from "./evidence-verify.js";

export interface LatestEvidence {
  feature_id: string;
  mode: string;
  /** Workspace-relative path of the file the evidence was read from. */
  evidence_path: string;
  evidence: GateEvidence;
}

interface Candidate {
  file: string;
  kind: "gate" | "latest";
  recordedMs: number;
  /** Already-read contents (latest-* files are read to learn their recorded time). */
  text?: string;
}

function recordedMsOf(text: string): number {
  try {
    const finished = (JSON.parse(text) as { finished_at?: unknown }).finished_at;
    const ms = typeof finished === "string" ? Date.parse(finished) : NaN;
    return Number.isNaN(ms) ? -Infinity : ms;
  } catch {
    return -Infinity;
  }
}

/** An evidence file's text, or null (with a warning naming why) when it cannot be read. */
function readEvidenceText(layout: WorkspaceLayout, file: string, warn: (message: string) => void): string | null {
  const read = readBytesBounded(file, READ_LIMITS.evidence);
  if (read.status === "ok") return read.bytes.toString("utf8");
  if (read.status !== "missing") warn(`${layout.relative(file)} ${describeRefusal(read)} [${refusalCode(read)}]; skipped`);
  return null;
}

function candidates(layout: WorkspaceLayout, dir: string, mode: string | undefined, onlyCopies: boolean, warn: (message: string) => void): Candidate[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const out: Candidate[] = [];
  for (const name of names) {
    const parsed = parseEvidenceFileName(name);
    if (!parsed || (mode !== undefined && parsed.mode !== mode) || (onlyCopies && parsed.kind !== "latest")) continue;
    const file = path.join(dir, name);
    if (parsed.kind === "gate") {
      // A gate file's name carries its recorded time (its finished_at), so it need not be opened to rank it.
      out.push({ file, kind: "gate", recordedMs: parsed.epochMs });
    } else {
      const text = readEvidenceText(layout, file, warn);
      if (text !== null) out.push({ file, kind: "latest", recordedMs: recordedMsOf(text), text });
    }
  }
  // Newest first; on a tie the immutable gate file wins over its copy.
  return out.sort((a, b) => b.recordedMs - a.recordedMs || (a.kind === b.kind ? 0 : a.kind === "gate" ? -1 : 1));
}

function parseEvidence(text: string): GateEvidence | null {
  try {
    const value = JSON.parse(text) as GateEvidence;
    if (value === null || typeof value !== "object" || typeof value.mode !== "string" || (value.overall !== "pass" && value.overall !== "fail")) return null;
    return value;
  } catch {
    return null;
  }
}

export interface LatestInput {
  feature_id: string;
  mode?: string;
}

/**
 * The newest gate evidence (of `mode`, or of any mode); evidence_not_found when there is none.
 * `verifiedOnly` limits the candidates to the latest-* copies, which a valid chain vouches for (each is the
 * newest chained gate file of its mode); a gate file that was never chained is then not returned.
 */
export function findLatestEvidence(layout: WorkspaceLayout, input: LatestInput, warn: (message: string) => void = () => undefined, verifiedOnly = false): LatestEvidence {
  const featureId = validateId("feature_id", input.feature_id);
  if (input.mode !== undefined) validateId("mode", input.mode);
  requireFeatureDir(layout, featureId);
  for (const candidate of candidates(layout, layout.evidenceDir(featureId), input.mode, verifiedOnly, warn)) {
    const text = candidate.text ?? readEvidenceText(layout, candidate.file, warn);
    if (text === null) continue;
    const evidence = parseEvidence(text);
    if (!evidence) {
      warn(`${layout.relative(candidate.file)} is not readable gate evidence; skipped`);
      continue;
    }
    return { feature_id: featureId, mode: evidence.mode, evidence_path: layout.relative(candidate.file), evidence };
  }
  const what = input.mode === undefined ? "no gate evidence" : `no gate evidence for mode '${input.mode}'`;
  throw new AopError("evidence_not_found", `feature '${featureId}' has ${what}`, {
    details: { feature_id: featureId, mode: input.mode ?? null },
    hint: `run a gate first: aop gates run --feature-id ${featureId} --mode ${input.mode ?? "<mode>"}`,
  });
}

/**
 * `evidence.latest` as a service: with `observability.evidence_integrity.verify_on_read` (and integrity on),
 * the chain is verified first, an invalid chain fails the read with its failure code, and only evidence
 * the chain vouches for is returned.
 */
export async function latestEvidence(layout: WorkspaceLayout, clock: Clock, policy: Policy, input: LatestInput, warn?: (message: string) => void): Promise<LatestEvidence> {
  const verifyOnRead = evidenceIntegrityEnabled(policy) && policy.observability.evidence_integrity.verify_on_read;
  if (verifyOnRead) {
    const report = await verifyFeatureChain(layout, clock, input.feature_id);
    if (!report.valid && report.failure_code && isErrorCode(report.failure_code)) {
      throw new AopError(report.failure_code, `evidence of '${input.feature_id}' fails verification: ${report.failure_reason}`, {
        details: { report },
        hint: `run \`aop evidence verify --feature-id ${input.feature_id}\` for the details`,
      });
    }
  }
  return findLatestEvidence(layout, input, warn, verifyOnRead);
}
