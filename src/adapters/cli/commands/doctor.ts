// aop doctor: run every check (DRIFT_*, CONT_*, CKPT_*) through the doctor.run tool, persist the report, print it, exit by it.
import type { Command } from "commander";
import { familyNames } from "../../../app/doctor-checks.js";
import type { CliContext } from "../program/context.js";
import { EXIT_DOCTOR_COULD_NOT_RUN } from "../program/exit-codes.js";
import { addFlags, type FlagSpec, type FlagValues } from "../flags/flags.js";
import { examples, reportError, runCommand, usageError } from "../program/run-command.js";
import type { ToolResult } from "../../../catalog/tool-types.js";

const DOCTOR_FLAGS = [
  { flag: "strict", description: "exit 2 on a critical finding, 1 on a finding at or above diagnostics.doctor.strict_fails_on" },
  { flag: "only", value: "<family>", description: familyNames().join(" | ") },
  { flag: "origin", value: "<name>", description: "run the checks that read records (timeline, evidence, continuity, checkpoints) over a pulled workspace; nothing is saved" },
] as const satisfies readonly FlagSpec[];

export function register(program: Command, summary: string): void {
  addFlags(program.command("doctor").description(summary), DOCTOR_FLAGS)
    .addHelpText(
      "after",
      "\nExit codes: 0 (always, without --strict), 3 when the doctor could not run;\nwith --strict 2 if any critical, else 1 if any finding at or above strict_fails_on, else 0.\n" +
        examples("aop doctor", "aop doctor --strict --json", "aop doctor --only drift", "aop doctor --origin alice@laptop"),
    )
    .action(runCommand(doctor));
}

async function doctor(ctx: CliContext, opts: FlagValues<typeof DOCTOR_FLAGS>): Promise<number> {
  if (opts.only !== undefined && !familyNames().includes(opts.only)) {
    throw usageError(`--only must be one of ${familyNames().join(", ")} (got '${opts.only}')`);
  }
  if (opts.origin !== undefined) return doctorPulled(ctx, opts.origin, opts);
  const { withClient, withOperationId } = await import("../sessions/tool-session.js");
  const { doctorExitCode } = await import("../../../domains/doctor/index.js");
  let data: ToolResult<"doctor.run">;
  try {
    data = await withClient(ctx, (call) => call("doctor.run", withOperationId(opts.only ? { only: opts.only } : {}, undefined)));
  } catch (err) {
    reportError(err, ctx.json);
    if (!ctx.json) ctx.err("the doctor could not run");
    return EXIT_DOCTOR_COULD_NOT_RUN;
  }
  if (ctx.json) ctx.printJson(data.report);
  else {
    const { renderDoctorReport } = await import("../output/doctor-format.js");
    ctx.out(renderDoctorReport(data.report, ctx.style));
    ctx.out(ctx.style.dim(`report: ${data.last_report_path}`));
  }
  return doctorExitCode(data.report, opts.strict === true, data.strict_fails_on);
}

/** The record-reading checks over a pulled workspace, read in place (docs/handoff.md); no report is saved. */
async function doctorPulled(ctx: CliContext, wanted: string, opts: FlagValues<typeof DOCTOR_FLAGS>): Promise<number> {
  const { requirePulled } = await import("../sessions/pulled-records.js");
  const origin = await requirePulled(ctx, wanted);
  const { DOCTOR_FAMILIES } = await import("../../../app/doctor-checks.js");
  const { doctorExitCode, runRecordDoctor } = await import("../../../domains/doctor/index.js");
  const { report, strictFailsOn } = await runRecordDoctor({ layout: origin.layout, local: ctx.layout, clock: ctx.clock, families: DOCTOR_FAMILIES, ...(opts.only ? { only: opts.only } : {}) });
  if (ctx.json) ctx.printJson({ origin: origin.label, ...report });
  else {
    const { renderDoctorReport } = await import("../output/doctor-format.js");
    ctx.out(ctx.style.dim(`origin ${origin.label} (${origin.display_name}, pulled ${origin.pulled_at} from ${origin.remote}): the checks that read records`));
    ctx.out(renderDoctorReport(report, ctx.style));
  }
  return doctorExitCode(report, opts.strict === true, strictFailsOn);
}
