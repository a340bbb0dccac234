// Tool handler for doctor.run: run every applicable check and persist the report.
import type { ToolHandlers } from "../../catalog/tool-types.js";
import type { DoctorFamily } from "./check-types.js";
import { runDoctor } from "./engine.js";
import { persistReport } from "./report-store.js";

/** What doctor.run needs from the composition root: every family and the tool-surface self-check. */
export interface DoctorToolDeps {
  families(): Promise<readonly DoctorFamily[]>;
  selfCheck(): Promise<string[]>;
}

export function doctorTools(deps: DoctorToolDeps): ToolHandlers {
  return {
    "doctor.run": async (args, ctx) => {
      const { report, strictFailsOn } = await runDoctor({ layout: ctx.layout, clock: ctx.clock, families: await deps.families(), selfCheck: deps.selfCheck, ...(args.only ? { only: args.only } : {}), ...(ctx.progress ? { onCheck: (done: number, total: number, check: string) => ctx.progress!({ type: "doctor-check", done, total, check }) } : {}) });
      const written = await persistReport(ctx.layout, report);
      return { report, strict_fails_on: strictFailsOn, last_report_path: written.last_report, history_path: written.history };
    },
  };
}
