// aop doctor: run every check (DRIFT_*, CONT_*, CKPT_*), persist the report, print it.
import type { Command } from "commander";
import { examples, runCommand } from "../run-command.js";
import { addFlags } from "../flags.js";
import { DOCTOR_FLAGS, doctorCommand } from "../doctor-run.js";

export function register(program: Command, summary: string): void {
  addFlags(program.command("doctor").description(summary), DOCTOR_FLAGS)
    .addHelpText(
      "after",
      "\nExit codes: 0 (always, without --strict), 3 when the doctor could not run;\nwith --strict 2 if any critical, else 1 if any finding at or above strict_fails_on, else 0.\n" +
        examples("aop doctor", "aop doctor --strict --json", "aop doctor --only drift"),
    )
    .action(runCommand(doctorCommand(async () => (await import("../tool-session.js")).openClient)));
}
