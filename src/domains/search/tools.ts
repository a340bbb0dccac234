// Tool handler for replay.search (served under the replay prefix beside the timeline's own tool).
import type { ToolHandlers } from "../../catalog/tool-types.js";
import { search } from "./search-service.js";

export const handlers: ToolHandlers = {
  "replay.search": async (args, ctx) => search(ctx.layout, args, ctx.clock.now()),
};
