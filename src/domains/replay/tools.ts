// Tool handler for replay.timeline_get.
import type { ToolHandlers } from "../../catalog/tool-types.js";
import { queryTimeline } from "./timeline-query.js";

export const handlers: ToolHandlers = {
  "replay.timeline_get": async (args, ctx) => queryTimeline(ctx.layout, args),
};
