// The origins domain's public surface: the pulled workspaces under `.aop/remote/` (written by
// `aop sync pull`), their labels, and a layout per folder that keeps the local keys (docs/handoff.md).
export { listOrigins, selectOrigin, type Origin, type OriginListing } from "./origins.js";
export { LOCAL_ORIGIN, originLabels, originsMatching, sanitizeLabel, splitRunRef } from "./origin-label.js";
export { parseOriginRecord, type OriginRecord } from "./origin-record.js";
