// The runs domain's public surface: run leases and sessions, and the run.* and session.* tools.
// Other domains, the composition root and the adapters import only from here.
export { isNoLeasePlaceholder, isReleased, leaseState, parseLease, type RunLease } from "./lease.js";
export { readLeaseFiles, type LeaseFile } from "./lease-files.js";
export { activeLeaseRunId } from "./lease-store.js";
/** The domain's tool handlers, loaded on first use so that importing the domain stays cheap. */
export const loadTools = async () => (await import("./tools.js")).handlers;
