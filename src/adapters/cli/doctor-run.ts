// The body of `aop doctor`, shared by commander's route (commands/doctor.ts) and the commander-free one
// (doctor-fast-path.ts): run every check through the doctor.run tool, print the report, exit by it.
import { familyNames } from "../../app/doctor-checks.js";
import type { ToolResult } from "../../catalog/tool-types.js";
import type { OpenClient } from "./client-session.js";
import type { CommandBody } from "./run-command.js";
import { EXIT_DOCTOR_COULD_NOT_RUN } from "./exit-codes.js";
import type { FlagSpec } from "./flags.js";
import { usageError } from "./run-command.js";

type DoctorRunData = ToolResult<"doctor.run">;

/** The flags of `aop doctor` besides the program's own. */
export const DOCTOR_FLAGS: readonly FlagSpec[] = [
  { flag: "strict", description: "exit 2 on a critical finding, 1 on a finding at or above diagnostics.doctor.strict_fails_on" },
  { flag: "only", value: "<family>", description: familyNames().join(" | ") },
];

/** The command's body, calling doctor.run through the client `open` gives (commander's route: any transport). */
export const doctorCommand = (open: () => Promise<OpenClient>): CommandBody<[]> => async (ctx, opts) => {
  if (opts.only !== undefined && !familyNames().includes(String(opts.only))) {
    throw usageError(`--only must be one of ${familyNames().join(", ")} (got '${String(opts.only)}')`);
  }
  const { withOpenClient, withOperationId } = await import("./client-session.js");
  const { doctorExitCode } = await import("../../domains/doctor/index.js");
  let data: DoctorRunData;
  try {
    data = await withOpenClient(await (await open())(ctx), (call) => call("doctor.run", withOperationId(opts.only ? { only: opts.only } : {}, undefined)));
  } catch (err) {
    const { reportError } = await import("./run-command.js");
    reportError(err, ctx.json);
    if (!ctx.json) ctx.err("the doctor could not run");
    return EXIT_DOCTOR_COULD_NOT_RUN;
  }
  if (ctx.json) ctx.printJson(data.report);
  else {
    const { renderDoctorReport } = await import("./output/doctor-format.js");
    ctx.out(renderDoctorReport(data.report, ctx.style));
    ctx.out(ctx.style.dim(`report: ${data.last_report_path}`));
  }
  return doctorExitCode(data.report, opts.strict === true, data.strict_fails_on);
};
