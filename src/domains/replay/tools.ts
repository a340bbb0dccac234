// Tool handler for replay.timeline_get.
import type { ToolHandlers } from "../../catalog/tool-types.js";
import { queryTimeline, type TimelineQuery } from "./timeline-query.js";

export const handlers: ToolHandlers = {
  "replay.timeline_get": async (args: TimelineQuery, ctx) => queryTimeline(ctx.layout, args),
};
