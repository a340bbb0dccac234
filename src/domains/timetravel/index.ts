// The time-travel domain's public surface: the state at a step of a run (replay.state_at).
// Other domains, the composition root and the adapters import only from here.
export type { StateAtResult } from "./state-at.js";
export type { KernelState, Known, StateChange, Unknown } from "./state-types.js";
/** The domain's tool handlers, loaded on first use so that importing the domain stays cheap. */
export const loadTools = async () => (await import("./tools.js")).handlers;
export { stateTrack, type StateTrack } from "./state-track.js";
export { CheckpointHistory } from "./checkpoint-git.js";
