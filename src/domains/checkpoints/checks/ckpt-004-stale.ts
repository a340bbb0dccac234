// CKPT_004: a checkpoint has not been updated for longer than policy `checkpoints.stale_days` allows for its status.
import type { DoctorCheck } from "../../doctor/index.js";
import { findingsOfKind } from "./checkpoint-doctor-results.js";

export const ckpt004Stale: DoctorCheck = {
  id: "CKPT_004_STALE",
  severity: "warning",
  title: "Checkpoints are fresh",
  remediation: "resume the skill and record where it stands (`aop checkpoint update <skill> …`), mark it complete, or `aop checkpoint reset <skill>`",
  run: (ctx) => findingsOfKind(ctx, "stale", () => "no checkpoint is stale"),
};
