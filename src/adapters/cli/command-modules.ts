// Each command's module, loaded only when it is the command invoked (command-registry.ts has the list).
import type { CommandModule, CommandName } from "./command-registry.js";

export const COMMAND_MODULES: Record<CommandName, () => Promise<CommandModule>> = {
  init: () => import("./commands/init.js"),
  config: () => import("./commands/config.js"),
  feature: () => import("./commands/feature.js"),
  run: () => import("./commands/run.js"),
  session: () => import("./commands/session.js"),
  checkpoint: () => import("./commands/checkpoint.js"),
  gates: () => import("./commands/gates.js"),
  evidence: () => import("./commands/evidence.js"),
  keys: () => import("./commands/keys.js"),
  replay: () => import("./commands/replay.js"),
  export: () => import("./commands/export.js"),
  report: () => import("./commands/report.js"),
  doctor: () => import("./commands/doctor.js"),
  continuity: () => import("./commands/continuity.js"),
  tools: () => import("./commands/tools.js"),
  call: () => import("./commands/call.js"),
  integrate: () => import("./commands/integrate.js"),
  agent: () => import("./commands/agent.js"),
  hook: () => import("./commands/hook.js"),
  mcp: () => import("./commands/mcp.js"),
};
