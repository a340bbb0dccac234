// The agents domain's public surface: the Claude Code hook, the orientation and prompts every agent
// client gets, and the client integrations. Other domains, the composition root and the adapters
// import only from here. What a hook's tool event does not need is loaded on first use, so that
// importing the domain stays cheap (the hook runs after every tool call of the agent).
export { MAX_EVENT_BYTES } from "./claude-event.js";
export type { ScannedEvent } from "./event-scan.js";
/** The streaming reader of an event over MAX_EVENT_BYTES, loaded only when one arrives. */
export const loadEventScanner = async () => (await import("./event-scan.js")).EventScanner;
export { rescueUnspooled, runClaudeHook } from "./claude-hook.js";
export { HOOK_CLIENTS, type HookClient } from "./hook-model.js";
/** The hook of every other client (loaded only by `aop hook <client>`). */
export const loadClientHook = async () => (await import("./client-hook.js")).runClientHook;
export { CLIENTS, SERVER_NAME } from "./client-configs.js";
export { MAX_HOOK_OUTPUT_CHARS } from "./hook-output.js";
export { planIntegration, writeIntegration } from "./integrate.js";

/** The orientation builder and the prompt texts (MCP resources and prompts). */
export const loadClientContext = async () => {
  const [orientation, prompts] = await Promise.all([import("./orientation.js"), import("./client-prompts.js")]);
  return { buildOrientation: orientation.buildOrientation, handoffText: prompts.handoffText, resumeIntro: prompts.resumeIntro };
};
