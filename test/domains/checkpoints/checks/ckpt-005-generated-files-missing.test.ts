import { ckpt005GeneratedFilesMissing } from "../../../../src/domains/checkpoints/checks/ckpt-005-generated-files-missing.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { checkpointCases, healthyCheckpoint } from "./checkpoint-fixtures.js";

testCheck(ckpt005GeneratedFilesMissing, {
  ...checkpointCases("warning"),
  valid: [
    { name: "every listed file exists", workspace: (root) => ({ present: ["docs/api.md", "src/app.ts"], files: { builder: healthyCheckpoint("builder", root, { context_primer: { generated_files: ["docs/api.md", "src/app.ts"] } }) } }), ok: "every listed generated file exists" },
    { name: "no generated files listed", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root) } }), ok: "every listed generated file exists" },
  ],
  invalid: [
    { name: "one of two listed files is gone", workspace: (root) => ({ present: ["docs/api.md"], files: { builder: healthyCheckpoint("builder", root, { context_primer: { generated_files: ["docs/api.md", "docs/removed.md"] } }) } }), findings: [{ message: /^builder: generated file docs\/removed\.md \(context_primer\.generated_files\) does not exist$/ }] },
  ],
});
