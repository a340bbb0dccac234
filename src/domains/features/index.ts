// The features domain's public surface: feature state and index, and the feature.* tools.
// Other domains, the composition root and the adapters import only from here.
export { FEATURE_STATUSES, type FeatureStatus } from "./feature-index.js";
export { readIndex, readState, recordGateResult, requireState } from "./feature-store.js";
/** The domain's tool handlers, loaded on first use so that importing the domain stays cheap. */
export const loadTools = async () => (await import("./tools.js")).handlers;
