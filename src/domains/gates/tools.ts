// Tool handler for `gates.run`; the ToolRuntime validates arguments and output against schemas/.
import type { ToolHandler, ToolHandlers } from "../../catalog/tool-types.js";
import { runGate, type RunGateInput } from "./gate-service.js";
import { recoverGateRun } from "./gate-recovery.js";

const gatesRun: ToolHandler = Object.assign(
  async (args: RunGateInput, ctx: Parameters<ToolHandler>[1]) =>
    runGate(ctx.layout, ctx.clock, ctx.policy, args, { warn: (m) => ctx.warn(m), ...(ctx.progress ? { onProgress: ctx.progress } : {}), ...(ctx.signal ? { signal: ctx.signal } : {}) }),
  { recover: recoverGateRun },
);

export const handlers: ToolHandlers = { "gates.run": gatesRun };
