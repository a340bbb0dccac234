// CKPT_001: a checkpoint file fails Checkpoint Protocol 1.0 validation (the next session cannot resume from it).
import type { DoctorCheck } from "../../doctor/index.js";
import { findingsOfKind } from "./checkpoint-doctor-results.js";

export const ckpt001ValidationErrors: DoctorCheck = {
  id: "CKPT_001_VALIDATION_ERRORS",
  severity: "warning",
  title: "Checkpoint files are valid",
  remediation: "run `aop checkpoint validate` and fix each error it lists, or `aop checkpoint reset <skill>` to move a broken file into history",
  run: (ctx) => findingsOfKind(ctx, "validation_error", (n) => `${n} checkpoint file${n === 1 ? "" : "s"} valid`),
};
