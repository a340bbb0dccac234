// The replay domain's public surface: the timeline writer, queries, retention and the replay.* tools.
// Other domains, the composition root and the adapters import only from here.
export { listRuns, type RunSummary, timelineRunIds } from "./run-list.js";
export { readRetention } from "./run-retention.js";
export { asEntry, ENTRY_KEYS } from "./timeline-entry.js";
export type { EntryWithoutSequence, TimelineEntry } from "./timeline-entry.js";
export { readEntriesFrom } from "./timeline-read.js";
export { readSparse } from "./timeline-sparse.js";
export { joinSidecar, readExtras, type Extras } from "./timeline-ext.js";
export { migrateTimeline, migrationBackupDir, type TimelineMigration } from "./timeline-migrate.js";
export { adoptHandoff, handoffBacklog } from "./timeline-handoff.js";
export { createTimelineHook, retainedAppender, sweepHandoffs } from "./timeline-hook.js";
export { queryTimeline, type TimelinePage } from "./timeline-query.js";
export { TimelineFile } from "./timeline-seek.js";
export { removeSpoolDirIfEmpty, spoolBacklog, spoolEntry } from "./timeline-spool.js";
// Every tool call's runtime imports this surface for the timeline hook; what only the doctor or
// `aop replay --follow` needs loads on first use.
import type { auditTimeline as AuditTimeline } from "./timeline-audit.js";
export type { TimelineAudit } from "./timeline-audit.js";
import type { followTimeline as FollowTimeline } from "./timeline-follow.js";
export const auditTimeline: typeof AuditTimeline = async (...args) => (await import("./timeline-audit.js")).auditTimeline(...args);
export const followTimeline: typeof FollowTimeline = async (...args) => (await import("./timeline-follow.js")).followTimeline(...args);
/** The domain's tool handlers, loaded on first use so that importing the domain stays cheap. */
export const loadTools = async () => (await import("./tools.js")).handlers;
