// Tool handler for `gates.run`; the ToolRuntime validates arguments and output against schemas/.
import type { ToolHandlers } from "../../catalog/tool-types.js";
import { runGate } from "./gate-service.js";

export const handlers: ToolHandlers = {
  "gates.run": async (args, ctx) =>
    runGate(ctx.layout, ctx.clock, ctx.policy, args, { warn: (m) => ctx.warn(m), ...(ctx.progress ? { onProgress: ctx.progress } : {}) }),
};
