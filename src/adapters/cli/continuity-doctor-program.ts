// The `continuity-doctor` bin as a commander program: help, --version and usage errors, worded as
// in `aop`. The bin loads it only for those (a well-formed command line skips commander entirely).
import { Command } from "./commander-vendor.js";
import { CONTINUITY_DOCTOR_BIN_FLAGS, defineContinuityDoctor } from "./commands/continuity.js";
import { addFlags } from "./flags.js";
import { runProgram } from "./run-program.js";
import { readPackageVersion } from "./version.js";

export async function runContinuityDoctorProgram(argv: string[]): Promise<void> {
  const program = addFlags(new Command("continuity-doctor").version(readPackageVersion(), "-V, --version", "print the version"), CONTINUITY_DOCTOR_BIN_FLAGS);
  defineContinuityDoctor(program, "continuity-doctor");
  await runProgram(program, argv);
}
