// The `continuity-doctor` bin as a commander program: `aop continuity doctor` (declared once, in
// commands/continuity.ts) under a program named after the bin.
import type { Command } from "commander";
import { Command as Program } from "../commander-vendor.js";
import { CONTINUITY_DOCTOR_BIN_FLAGS, defineContinuityDoctor } from "../commands/continuity.js";
import { addFlags } from "../flags/flags.js";
import { readPackageVersion } from "./version.js";

export function buildContinuityDoctorProgram(): Command {
  const program = addFlags(new Program("continuity-doctor").version(readPackageVersion(), "-V, --version", "print the version"), CONTINUITY_DOCTOR_BIN_FLAGS);
  defineContinuityDoctor(program, "continuity-doctor");
  return program;
}
