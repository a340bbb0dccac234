// The replay domain's public surface: the timeline writer, queries, retention and the replay.* tools.
// Other domains, the composition root and the adapters import only from here.
export { listRuns, type RunSummary, timelineRunIds } from "./run-list.js";
export { pruneRuns, readRetention } from "./run-retention.js";
export { auditTimeline } from "./timeline-audit.js";
export { asEntry, ENTRY_KEYS, type EntryWithoutSequence, type TimelineEntry } from "./timeline-entry.js";
export { followTimeline } from "./timeline-follow.js";
export { adoptHandoff, handoffBacklog } from "./timeline-handoff.js";
export { createTimelineHook, retainedAppender, sweepHandoffs } from "./timeline-hook.js";
export { queryTimeline, type TimelinePage } from "./timeline-query.js";
export { discardSpooled, removeSpoolDirIfEmpty, spoolBacklog, spoolEntry } from "./timeline-spool.js";
export { TimelineWriter } from "./timeline-writer.js";
/** The domain's tool handlers, loaded on first use so that importing the domain stays cheap. */
export const loadTools = async () => (await import("./tools.js")).handlers;
