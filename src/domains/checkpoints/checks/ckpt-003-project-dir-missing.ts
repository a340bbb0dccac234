// CKPT_003: a checkpoint's project_dir does not exist on this machine (not reported when the checkpoints sit
// in a git repository root, where another clone's absolute path is expected).
import type { DoctorCheck } from "../../doctor/index.js";
import { findingsOfKind } from "./checkpoint-doctor-results.js";

export const ckpt003ProjectDirMissing: DoctorCheck = {
  id: "CKPT_003_PROJECT_DIR_MISSING",
  severity: "warning",
  title: "Checkpoint project folders exist",
  remediation: "set project_dir to where the project lives on this machine: `aop checkpoint update <skill> --project_dir=<path>`",
  run: (ctx) => findingsOfKind(ctx, "project_dir_missing", () => "every project_dir exists"),
};
