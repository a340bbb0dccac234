// The one place a typed tool handler is widened to what the pipeline calls (see PipelineHandler). Its
// own module, so the lean replay route can use it without loading the registry of every domain.
import type { PipelineHandler, ToolHandlers, ToolName } from "../catalog/tool-types.js";

/** A tool's handler as the pipeline calls it. */
export function pipelineHandler(handler: NonNullable<ToolHandlers[ToolName]>): PipelineHandler {
  return handler as unknown as PipelineHandler;
}
