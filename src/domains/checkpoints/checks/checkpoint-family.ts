// The checkpoint family (CKPT_*, docs/checkpoints.md), in id order. `aop doctor` runs it when the
// checkpoints folder exists; `checkpoint doctor` presents it in its own format.
import fs from "node:fs";
import type { DoctorCheck, DoctorFamily } from "../../doctor/index.js";
import { ckpt001ValidationErrors } from "./ckpt-001-validation-errors.js";
import { ckpt002ValidationWarnings } from "./ckpt-002-validation-warnings.js";
import { ckpt003ProjectDirMissing } from "./ckpt-003-project-dir-missing.js";
import { ckpt004Stale } from "./ckpt-004-stale.js";
import { ckpt005GeneratedFilesMissing } from "./ckpt-005-generated-files-missing.js";
import { ckpt006DoneTicketStillNext } from "./ckpt-006-done-ticket-still-next.js";

const checkpointChecks: DoctorCheck[] = [
  ckpt001ValidationErrors,
  ckpt002ValidationWarnings,
  ckpt003ProjectDirMissing,
  ckpt004Stale,
  ckpt005GeneratedFilesMissing,
  ckpt006DoneTicketStillNext,
];

export const checkpointFamily: DoctorFamily = { name: "checkpoint", applies: (ctx) => fs.existsSync(ctx.layout.checkpointsDir), checks: checkpointChecks };
