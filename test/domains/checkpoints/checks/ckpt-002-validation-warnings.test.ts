import { ckpt002ValidationWarnings } from "../../../../src/domains/checkpoints/checks/ckpt-002-validation-warnings.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { checkpointCases, healthyCheckpoint } from "./checkpoint-fixtures.js";

testCheck(ckpt002ValidationWarnings, {
  ...checkpointCases("info"),
  valid: [
    { name: "a clean checkpoint", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root) } }), ok: "no validation warnings" },
    { name: "an unknown key is a hint, not a warning", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root, { notes: "n" }) } }), ok: "no validation warnings" },
    { name: "a complete checkpoint without a progress table", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root, { status: "complete", progress_table: undefined, next_actions: [] }) } }), ok: "no validation warnings" },
  ],
  invalid: [
    { name: "no progress_table while in progress", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root, { progress_table: undefined }) } }), findings: [{ message: /^builder\.checkpoint\.json: 1 validation warning: progress_table is missing \(or not a list\)/ }] },
    { name: "an oversized summary and an unknown key", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root, { progress_summary: "x".repeat(1500), context_primer: undefined }) } }), findings: [{ message: /^builder\.checkpoint\.json: 2 validation warnings: .*\(and 1 more\)$/ }] },
  ],
});
