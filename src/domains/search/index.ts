// The search domain's public surface: replay.search over every record aop keeps (docs/replay.md, "Search").
export { search, type SearchArgs, type SearchHit, type SearchResult } from "./search-service.js";
/** The domain's tool handlers, loaded on first use. */
export const loadTools = async () => (await import("./tools.js")).handlers;
