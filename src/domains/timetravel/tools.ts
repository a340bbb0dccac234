// Tool handler for replay.state_at (served with the replay.* tools: src/app/handler-registry.ts).
import type { ToolHandlers } from "../../catalog/tool-types.js";
import { stateAt } from "./state-at.js";

export const handlers: ToolHandlers = {
  "replay.state_at": async (args, ctx) => stateAt(ctx.layout, args) as never,
};
