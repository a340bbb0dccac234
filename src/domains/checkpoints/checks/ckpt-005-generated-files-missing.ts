// CKPT_005: a file listed in context_primer.generated_files does not exist (deleted, moved, or never written).
import type { DoctorCheck } from "../../doctor/index.js";
import { findingsOfKind } from "./checkpoint-doctor-results.js";

export const ckpt005GeneratedFilesMissing: DoctorCheck = {
  id: "CKPT_005_GENERATED_FILES_MISSING",
  severity: "warning",
  title: "Generated files listed in checkpoints exist",
  remediation: "restore the file, or drop it from context_primer.generated_files (`aop checkpoint update <skill> --context_primer.generated_files:json=[...]`)",
  run: (ctx) => findingsOfKind(ctx, "generated_file_missing", () => "every listed generated file exists"),
};
