import { ckpt005GeneratedFilesMissing } from "../../../../src/domains/checkpoints/checks/ckpt-005-generated-files-missing.js";
import { describeCheckpointCheck, healthyCheckpoint } from "./checkpoint-fixtures.js";

describeCheckpointCheck(ckpt005GeneratedFilesMissing, {
  severity: "warning",
  healthy: [
    ["every listed file exists", (root) => ({ present: ["docs/api.md", "src/app.ts"], files: { builder: healthyCheckpoint("builder", root, { context_primer: { generated_files: ["docs/api.md", "src/app.ts"] } }) } }), "every listed generated file exists"],
    ["no generated files listed", (root) => ({ files: { builder: healthyCheckpoint("builder", root) } }), "every listed generated file exists"],
  ],
  broken: [
    ["one of two listed files is gone", (root) => ({ present: ["docs/api.md"], files: { builder: healthyCheckpoint("builder", root, { context_primer: { generated_files: ["docs/api.md", "docs/removed.md"] } }) } }), [/^builder: generated file docs\/removed\.md \(context_primer\.generated_files\) does not exist$/]],
  ],
});
