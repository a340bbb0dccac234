// The `continuity-doctor` bin: `aop continuity doctor` as a program of its own. A well-formed command
// line runs the command body at once (node's own argument parser over the same flag declarations);
// help, --version and malformed input go to the commander program, so they read exactly as in `aop`.
import { parseArgs } from "node:util";
import { CONTINUITY_DOCTOR_BIN_FLAGS, CONTINUITY_DOCTOR_FLAGS, CONTINUITY_RUN_OPTIONS, continuityDoctor } from "./commands/continuity.js";
import { runBody } from "./run-command.js";

export async function main(argv: string[]): Promise<void> {
  const opts = parseWellFormed(argv);
  if (opts) return runBody(continuityDoctor, opts, [], CONTINUITY_RUN_OPTIONS);
  // Left out of the one-file bundle (scripts/bundle-bins.mjs): commander loads only on this path.
  const { runContinuityDoctorProgram } = await import("./continuity-doctor-program.js");
  await runContinuityDoctorProgram(argv);
}

/** The options as commander would give them, or undefined for anything but a plain, valid command line. */
function parseWellFormed(argv: string[]): Record<string, unknown> | undefined {
  const options = Object.fromEntries(
    [...CONTINUITY_DOCTOR_BIN_FLAGS, ...CONTINUITY_DOCTOR_FLAGS].map((spec) => [spec.flag, { type: spec.value ? ("string" as const) : ("boolean" as const), multiple: spec.repeatable === true }]),
  );
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false }));
  } catch {
    return undefined;
  }
  const opts: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    // A value that looks like a flag (`--workspace --json`) is a mistake commander words better.
    if ([value].flat().some((v) => typeof v === "string" && v.startsWith("-"))) return undefined;
    opts[key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = value;
  }
  return opts;
}
