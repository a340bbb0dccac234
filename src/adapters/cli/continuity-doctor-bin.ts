// The `continuity-doctor` bin: `aop continuity doctor` as a program of its own. A well-formed command
// line runs the command body at once (node's own argument parser over the same flag declarations);
// help, --version and malformed input go to the commander program, so they read exactly as in `aop`.
import { CONTINUITY_DOCTOR_BIN_FLAGS, CONTINUITY_DOCTOR_FLAGS, CONTINUITY_RUN_OPTIONS, continuityDoctor } from "./commands/continuity.js";
import { parseFlags } from "./flags.js";
import { runBody } from "./run-command.js";

export async function main(argv: string[]): Promise<void> {
  const line = parseFlags(argv, [...CONTINUITY_DOCTOR_BIN_FLAGS, ...CONTINUITY_DOCTOR_FLAGS]);
  if (line) return runBody(continuityDoctor, line.opts, [], CONTINUITY_RUN_OPTIONS);
  // Left out of the one-file bundle (scripts/bundle-bins.mjs): commander loads only on this path.
  const { runContinuityDoctorProgram } = await import("./continuity-doctor-program.js");
  await runContinuityDoctorProgram(argv);
}
