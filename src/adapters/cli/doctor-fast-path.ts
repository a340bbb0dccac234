// A commander-free route for a plain `aop doctor` (CI and every session start run it): the program's
// flags anywhere, --strict and --only after `doctor`, parsed from the same declarations commander
// builds its options from; the body is the one commander runs (doctor-run.ts). Anything else (help,
// unknown or misplaced flags, another transport) returns false and goes through the full program,
// which words the mistake. bin/aop.js runs it from a one-file bundle (scripts/bundle-bins.mjs).
import { provideValidators } from "../../catalog/load-validator.js";
import { AOP_GLOBAL_FLAGS } from "./command-registry.js";
import type { GlobalOptions } from "./context.js";
import { DOCTOR_FLAGS, doctorCommand } from "./doctor-run.js";
import { parseRouteFlags } from "./flags.js";
import { PIPELINE_VALIDATORS } from "./route-validators.js";
import { runBody } from "./run-command.js";

/** The options of a plain `aop doctor`, or null when the full program must handle argv. */
export function parseFastDoctor(argv: readonly string[]): (Record<string, unknown> & GlobalOptions) | null {
  return parseRouteFlags(argv, ["doctor"], AOP_GLOBAL_FLAGS, DOCTOR_FLAGS) ?? null;
}

/** Runs the doctor when argv is a plain `aop doctor`; false when the full program must handle it. */
export async function tryFastDoctor(argv: readonly string[]): Promise<boolean> {
  const opts = parseFastDoctor(argv);
  if (!opts) return false;
  // Literal paths, so the bundle holds the validators every doctor run uses.
  provideValidators({
    ...PIPELINE_VALIDATORS,
    "input/doctor.run": () => import("../../catalog/generated/validators/input__doctor.run.js"),
    "output/doctor.run": () => import("../../catalog/generated/validators/output__doctor.run.js"),
    "config/gates": () => import("../../catalog/generated/validators/config__gates.js"),
    doctor_report: () => import("../../catalog/generated/validators/doctor_report.js"),
  });
  // The route takes `--transport inprocess` only: the in-process client, without the MCP one.
  await runBody(doctorCommand(async () => (await import("./client-session.js")).openInProcessClient), opts, []);
  return true;
}
