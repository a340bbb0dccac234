// The timeline entry's shape, declared once: replay.timeline_get's output schema
// (schemas/output/replay.timeline_get.json) lists its keys and their types, and the types generated
// from it (scripts/schema-types.mjs) are the ones every writer and reader uses.
import type { ReplayTimelineGetArgs, ReplayTimelineGetResult } from "./generated/tool-types.js";

/**
 * One timeline entry as readers see it: the seed's 14 keys (DESIGN §4, the only keys of a line on
 * disk, docs/replay.md), then the extras joined back from the run's sidecar `<run_id>.ext.jsonl` by
 * sequence — `agent_id`/`agent_type` (a subagent), `marker` (a session marker's label), `transport`
 * ("mcp"), `request_hash_skipped` (why a hook's request_hash is null), and any other extra under `ext`.
 */
export type TimelineEntry = ReplayTimelineGetResult["entries"][number];

/** Extras beyond the named ones: flat JSON scalars (tool_use_id, client, prompt hashes, …). */
export type TimelineExt = NonNullable<TimelineEntry["ext"]>;

export type IdempotencyStatus = TimelineEntry["idempotency_status"];

/** What a timeline query selects entries by (replay.timeline_get's arguments but the run and the page size). */
export type TimelineFilter = Omit<ReplayTimelineGetArgs, "run_id" | "limit">;

/**
 * `tool_name`s reserved for session markers (DESIGN §21): a marker is an entry of its own, its details
 * (the client's label, a prompt's hash) in the sidecar. No catalog tool has one of these names.
 */
const MARKER_TOOL_NAMES = ["session.start", "session.prompt", "session.compact", "session.subagent_start", "session.subagent_stop", "session.stop", "session.end"] as const;
export type MarkerToolName = (typeof MARKER_TOOL_NAMES)[number];

const MARKERS = new Set<string>(MARKER_TOOL_NAMES);

/** True for a marker entry's tool_name (or an old line's `marker` label). */
export function isMarkerEntry(entry: Pick<TimelineEntry, "tool_name" | "marker">): boolean {
  return MARKERS.has(entry.tool_name) || entry.marker !== undefined;
}

/** The entry's session, or null where the line names none: its `session_id` is then the run's own id (DESIGN §21). */
export function sessionOf(entry: Pick<TimelineEntry, "session_id" | "run_id">): string | null {
  return entry.session_id === null || entry.session_id === entry.run_id ? null : entry.session_id;
}
