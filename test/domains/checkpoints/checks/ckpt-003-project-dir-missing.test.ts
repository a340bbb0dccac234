import { ckpt003ProjectDirMissing } from "../../../../src/domains/checkpoints/checks/ckpt-003-project-dir-missing.js";
import { describeCheckpointCheck, healthyCheckpoint } from "./checkpoint-fixtures.js";

describeCheckpointCheck(ckpt003ProjectDirMissing, {
  severity: "warning",
  healthy: [
    ["project_dir is the workspace", (root) => ({ files: { builder: healthyCheckpoint("builder", root) } }), "every project_dir exists"],
    ["project_dir is relative and exists", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { project_dir: "." }) } }), "every project_dir exists"],
    ["a missing project_dir in a git repository root (another clone)", (root) => ({ git: true, files: { builder: healthyCheckpoint("builder", root, { project_dir: "/home/someone-else/shop-api" }) } }), "every project_dir exists"],
  ],
  broken: [
    ["project_dir from another machine", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { project_dir: "/home/someone-else/shop-api" }) } }), [/^builder: project_dir \/home\/someone-else\/shop-api does not exist on this machine$/]],
  ],
});
