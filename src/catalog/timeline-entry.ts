// The timeline entry's shape, declared once: replay.timeline_get's output schema
// (schemas/output/replay.timeline_get.json) lists its keys and their types, and the types generated
// from it (scripts/schema-types.mjs) are the ones every writer and reader uses.
import type { ReplayTimelineGetArgs, ReplayTimelineGetResult } from "./generated/tool-types.js";

/**
 * One timeline line: the contract's 14 keys (docs/replay.md), then the optional ones aop writes only
 * when set — `agent_id`/`agent_type` (a Claude Code subagent), `marker` (a session marker's label),
 * `transport` ("mcp"), `request_hash_skipped` (why a hook's request_hash is null).
 */
export type TimelineEntry = ReplayTimelineGetResult["entries"][number];

export type IdempotencyStatus = TimelineEntry["idempotency_status"];

/** What a timeline query selects entries by (replay.timeline_get's arguments but the run and the page size). */
export type TimelineFilter = Omit<ReplayTimelineGetArgs, "run_id" | "limit">;
