// The gates domain's public surface: the gate runner and the gates.run tool.
// Other domains, the composition root and the adapters import only from here.
export type { GateProgressEvent } from "./gate-runner.js";
export type { GateRunReport } from "./gate-service.js";
export { runGate, type RunGateInput } from "./gate-service.js";
/** The domain's tool handlers, loaded on first use so that importing the domain stays cheap. */
export const loadTools = async () => (await import("./tools.js")).handlers;
/** How the domain finishes its tools' calls that were killed half way (docs/kernel.md, "Crash safety"). */
export const loadRecoveries = async () => (await import("./tools.js")).recoveries;
