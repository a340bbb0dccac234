// The agents domain's public surface: the Claude Code hook and the client integrations.
// Other domains, the composition root and the adapters import only from here.
export { MAX_EVENT_BYTES } from "./claude-event.js";
export { runClaudeHook } from "./claude-hook.js";
export { CLIENTS } from "./client-configs.js";
export { planIntegration, writeIntegration } from "./integrate.js";
