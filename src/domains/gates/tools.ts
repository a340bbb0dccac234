// Tool handler for `gates.run`; the ToolRuntime validates arguments and output against schemas/.
// A failing gate is answered as the error `gate_failed` carrying the run report (gate-verdict.ts).
import type { ToolHandlers, ToolRecoveries } from "../../catalog/tool-types.js";
import { runGate } from "./gate-service.js";
import { recoverGateRun } from "./gate-recovery.js";
import { gateVerdict } from "./gate-verdict.js";

export const handlers: ToolHandlers = {
  "gates.run": async (args, ctx) =>
    gateVerdict(await runGate(ctx.layout, ctx.clock, ctx.policy, args, { warn: (m) => ctx.warn(m), ...(ctx.progress ? { onProgress: ctx.progress } : {}), ...(ctx.signal ? { signal: ctx.signal } : {}) })),
};

/** A gates.run killed after writing its evidence is finished by its retry (docs/evidence.md). */
export const recoveries: ToolRecoveries = {
  "gates.run": async (args, effects, ctx) => {
    const report = await recoverGateRun(args, effects, ctx);
    return report === null ? null : gateVerdict(report);
  },
};
