import { ckpt003ProjectDirMissing } from "../../../../src/domains/checkpoints/checks/ckpt-003-project-dir-missing.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { checkpointCases, healthyCheckpoint } from "./checkpoint-fixtures.js";

testCheck(ckpt003ProjectDirMissing, {
  ...checkpointCases("warning"),
  valid: [
    { name: "project_dir is the workspace", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root) } }), ok: "every project_dir exists" },
    { name: "project_dir is relative and exists", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root, { project_dir: "." }) } }), ok: "every project_dir exists" },
    { name: "a missing project_dir in a git repository root (another clone)", workspace: (root) => ({ git: true, files: { builder: healthyCheckpoint("builder", root, { project_dir: "/home/someone-else/shop-api" }) } }), ok: "every project_dir exists" },
  ],
  invalid: [
    { name: "project_dir from another machine", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root, { project_dir: "/home/someone-else/shop-api" }) } }), findings: [{ message: /^builder: project_dir \/home\/someone-else\/shop-api does not exist on this machine$/ }] },
  ],
});
