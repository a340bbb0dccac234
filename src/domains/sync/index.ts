// The sync domain's public surface: records of this workspace pushed to, and other workspaces' records
// pulled from, any git remote under refs/aop/ (DESIGN §24, docs/sync.md).
export { pushRecords, recordsRef, trackingRef, type PushOptions, type PushResult } from "./push.js";
export { pullRecords, readOriginFile, type OriginFile, type PulledOrigin, type PullResult } from "./pull.js";
export { syncStatus, type OriginState, type RunSyncState, type SyncStatus } from "./status.js";
export { DEFAULT_PRUNE_DAYS, pruneRecords, type PruneResult } from "./prune.js";
export { SEGMENT_LINES } from "./record-tree.js";
