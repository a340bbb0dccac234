// The runtime of `aop replay`'s lean route: the same pipeline (RBAC, schemas, timeline), serving only
// the replay.* tools, so the route loads nothing of the other domains.
import { loadTools } from "../domains/replay/index.js";
import type { HandlerLoader, ToolRuntime } from "../runtime/tool-runtime.js";
import type { ToolName } from "../catalog/tool-types.js";
import { pipelineHandler } from "./pipeline-handler.js";
import { createRuntimeWith, type RuntimeSetup } from "./runtime-base.js";

const replayHandlers: HandlerLoader = async (toolName) => {
  if (!toolName.startsWith("replay.")) return undefined;
  const handler = (await loadTools())[toolName as ToolName];
  return handler ? pipelineHandler(handler) : undefined;
};

export function createReplayRuntime(setup: RuntimeSetup): Promise<ToolRuntime> {
  return createRuntimeWith(setup, { handlerLoader: replayHandlers }); // read-only tools: no recoveries
}
