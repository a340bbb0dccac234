// anchors.jsonl beside the chain: one signed checkpoint per line, appended, never rewritten.
// Line: {anchored_at, keyid, note, attestations?}; only the notes are trusted (they are signed), the rest
// helps people. `attestations` is the signed note of the covered entries' attestation digests.
import fs from "node:fs";
import { appendJsonLine, readLinesSync } from "../../store/jsonl.js";
import { readJsonlTailForAppend } from "../../store/jsonl-tail.js";
import type { WorkspaceLayout } from "../../store/layout.js";

export interface AnchorRecord {
  anchored_at: string;
  keyid: string;
  note: string;
  /** Signed attestation digests of the entries the note covers (attestation-digests.ts), when made. */
  attestations?: string;
  /** Their tree's compact range (base64 node hashes), from which the next anchor extends it. */
  attestations_frontier?: string[];
}

export type NewestAnchor =
  | { status: "none" }
  | { status: "malformed"; line: number; reason: string }
  | { status: "present"; line: number; record: AnchorRecord };

/**
 * Append under the feature's evidence lock. A torn final line (a writer killed mid-append) is cut off
 * first: no anchor was ever returned for it, and gluing the next line onto it would corrupt both.
 */
export function appendAnchorLocked(layout: WorkspaceLayout, featureId: string, record: AnchorRecord, options: { durable?: boolean; warn?: (message: string) => void } = {}): void {
  const file = layout.anchorsFile(featureId);
  // The store's tail reader: bounded memory, a special file or a link out of the workspace refused.
  readJsonlTailForAppend(file, 0, (removed) => options.warn?.(`${layout.relative(file)}: removed ${removed} bytes of an interrupted append`));
  appendJsonLine(file, record, { durable: options.durable ?? true });
}

function parseRecord(text: string): AnchorRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "is not valid JSON";
  }
  const r = value as Record<string, unknown> | null;
  if (r === null || typeof r !== "object" || typeof r.note !== "string") return "has no note";
  const record: AnchorRecord = { anchored_at: typeof r.anchored_at === "string" ? r.anchored_at : "", keyid: typeof r.keyid === "string" ? r.keyid : "", note: r.note };
  if (typeof r.attestations === "string") record.attestations = r.attestations;
  if (Array.isArray(r.attestations_frontier) && r.attestations_frontier.every((h) => typeof h === "string")) record.attestations_frontier = r.attestations_frontier as string[];
  return record;
}

/**
 * The last complete line. A final line without a newline is an interrupted append and is ignored; a
 * complete line that is not an anchor is reported, never skipped to reach an older one.
 */
export function readNewestAnchor(layout: WorkspaceLayout, featureId: string): NewestAnchor {
  const file = layout.anchorsFile(featureId);
  if (!fs.existsSync(file)) return { status: "none" };
  let last: string | null = null;
  let line = 0;
  for (const raw of readLinesSync(file)) {
    if (!raw.complete) break;
    line++;
    last = raw.text;
  }
  if (last === null) return { status: "none" };
  const record = parseRecord(last);
  return typeof record === "string" ? { status: "malformed", line, reason: `line ${line} ${record}` } : { status: "present", line, record };
}
