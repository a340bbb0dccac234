// CKPT_002: a valid checkpoint carries validation warnings (missing progress table, oversized summary, unknown keys…).
import type { DoctorCheck } from "../../doctor/index.js";
import { findingsOfKind } from "./checkpoint-doctor-results.js";

export const ckpt002ValidationWarnings: DoctorCheck = {
  id: "CKPT_002_VALIDATION_WARNINGS",
  severity: "info",
  title: "Checkpoint files have no validation warnings",
  remediation: "run `aop checkpoint validate` to see each warning and what to change",
  run: (ctx) => findingsOfKind(ctx, "validation_warning", () => "no validation warnings"),
};
