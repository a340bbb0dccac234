// origin.json beside a pulled workspace's records (docs/handoff.md, "Reading pulled records"): every field
// checked, since a pulled folder is untrusted input. Pure.
import { isWorkspaceId } from "../../core/ids.js";
import { isIsoUtc } from "../../core/instant.js";

export interface OriginRecord {
  version: 1;
  /** The git remote it was pulled from. */
  remote: string;
  workspace_id: string;
  display_name: string;
  /** The commit of `refs/aop/records/<workspace_id>` that was materialized. */
  commit: string;
  committed_at: string;
  pulled_at: string;
}

const KEYS = ["version", "remote", "workspace_id", "display_name", "commit", "committed_at", "pulled_at"] as const;
const COMMIT = /^[0-9a-f]{40}$/;
// A git remote's name as it can be a folder name: no separators, no leading dot.
const REMOTE = /^(?!\.)[A-Za-z0-9._@+-]{1,100}$/;
const MAX_DISPLAY_NAME = 200;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The record, or why it is not one. */
export function parseOriginRecord(text: string): OriginRecord | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: "is not JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { problem: "is not a JSON object" };
  const o = value as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => !(KEYS as readonly string[]).includes(k));
  if (extra.length > 0) return { problem: `has unknown field ${JSON.stringify(extra[0]!.slice(0, 40))}` };
  if (o.version !== 1) return { problem: "version must be 1" };
  if (typeof o.remote !== "string" || !REMOTE.test(o.remote)) return { problem: "remote must be a git remote name" };
  if (!isWorkspaceId(o.workspace_id)) return { problem: "workspace_id must be 32 lowercase hex characters" };
  if (typeof o.display_name !== "string" || o.display_name === "" || o.display_name.length > MAX_DISPLAY_NAME || CONTROL.test(o.display_name)) {
    return { problem: `display_name must be 1-${MAX_DISPLAY_NAME} characters without control characters` };
  }
  if (typeof o.commit !== "string" || !COMMIT.test(o.commit)) return { problem: "commit must be 40 lowercase hex characters" };
  for (const field of ["committed_at", "pulled_at"] as const) {
    if (!isIsoUtc(o[field])) return { problem: `${field} must be an ISO 8601 UTC time` };
  }
  return o as unknown as OriginRecord;
}
