// The sync domain's public surface: records of this workspace pushed to, and other workspaces' records
// pulled from, any git remote under refs/aop/ (DESIGN §24, docs/sync.md). `aop handoff` calls pushRecords
// after writing its note.
export { pushRecords, type PushResult } from "./push.js";
export { pullRecords, type PullResult } from "./pull.js";
export { syncStatus, type SyncStatus } from "./status.js";
export { pruneRecords, type PruneResult } from "./prune.js";
