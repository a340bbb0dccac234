// Finds the gate evidence a `gates.run` call wrote, from what its timeline entry records: the feature
// and the call's time span. A gate file's name carries its recorded finish time, so only files whose
// name falls inside the span are opened.
import fs from "node:fs";
import path from "node:path";
import { idProblem } from "../../core/ids.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readTextBounded } from "../../store/read-text-bounded.js";
import { parseEvidenceFileName } from "./evidence-names.js";
import type { GateEvidence } from "./evidence-types.js";

/** Evidence files hold one result per step; anything larger is not ours and is not read. */
const MAX_EVIDENCE_BYTES = 8 * 1024 * 1024;

/** A gate evidence file found by its recorded time, with its contents when they read as gate evidence. */
export interface FoundGateEvidence {
  feature_id: string;
  /** From the file's name. */
  mode: string;
  /** Workspace-relative. */
  evidence_path: string;
  /** null when the file cannot be read as gate evidence (too large, not JSON, no step results). */
  evidence: GateEvidence | null;
}

/**
 * The gate evidence file of `featureId` recorded within [fromMs, toMs], the one recorded nearest `toMs`
 * when several are; null when there is none (or it is not a regular file). A file found whose contents
 * are not evidence is still returned: a view judging it against the chain must know it is there.
 */
export function findGateEvidenceBetween(layout: WorkspaceLayout, featureId: string, fromMs: number, toMs: number): FoundGateEvidence | null {
  const dir = layout.evidenceDir(featureId);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return null;
  }
  let best: { name: string; mode: string; epochMs: number } | null = null;
  for (const name of names) {
    const parsed = parseEvidenceFileName(name);
    if (parsed?.kind !== "gate" || parsed.epochMs < fromMs || parsed.epochMs > toMs) continue;
    if (!best || Math.abs(toMs - parsed.epochMs) < Math.abs(toMs - best.epochMs)) best = { name, mode: parsed.mode, epochMs: parsed.epochMs };
  }
  if (!best) return null;
  const file = path.join(dir, best.name);
  // Evidence is written as regular files: a link, FIFO or device under that name is not read (opening a
  // FIFO would block).
  if (fs.lstatSync(file, { throwIfNoEntry: false })?.isFile() !== true) return null;
  return { feature_id: featureId, mode: best.mode, evidence_path: layout.relative(file), evidence: readEvidence(file) };
}

function readEvidence(file: string): GateEvidence | null {
  const read = readTextBounded(file, MAX_EVIDENCE_BYTES);
  if (read.status !== "ok" || read.truncated || read.binary) return null;
  let evidence: GateEvidence;
  try {
    evidence = JSON.parse(read.text) as GateEvidence;
  } catch {
    return null;
  }
  if (evidence === null || typeof evidence !== "object" || !Array.isArray(evidence.step_results)) return null;
  return evidence;
}

/**
 * Features whose evidence folder holds at least one gate evidence file (gates have run for them), sorted.
 * Unreadable or odd folders are passed over: this only says whether gates ran.
 */
export function featuresWithGateEvidence(layout: WorkspaceLayout): string[] {
  let features: fs.Dirent[];
  try {
    features = fs.readdirSync(layout.featuresDir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const feature of features) {
    if (!feature.isDirectory() || idProblem(feature.name) !== null) continue;
    let names: string[];
    try {
      names = fs.readdirSync(layout.evidenceDir(feature.name));
    } catch {
      continue;
    }
    if (names.some((n) => parseEvidenceFileName(n)?.kind === "gate")) out.push(feature.name);
  }
  return out.sort();
}
