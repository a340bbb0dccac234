import { ckpt002ValidationWarnings } from "../../../../src/domains/checkpoints/checks/ckpt-002-validation-warnings.js";
import { describeCheckpointCheck, healthyCheckpoint } from "./checkpoint-fixtures.js";

describeCheckpointCheck(ckpt002ValidationWarnings, {
  severity: "info",
  healthy: [
    ["a clean checkpoint", (root) => ({ files: { builder: healthyCheckpoint("builder", root) } }), "no validation warnings"],
    ["an unknown key is a hint, not a warning", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { notes: "n" }) } }), "no validation warnings"],
    ["a complete checkpoint without a progress table", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { status: "complete", progress_table: undefined, next_actions: [] }) } }), "no validation warnings"],
  ],
  broken: [
    ["no progress_table while in progress", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { progress_table: undefined }) } }), [/^builder\.checkpoint\.json: 1 validation warning: progress_table is missing \(or not a list\)/]],
    ["an oversized summary and an unknown key", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { progress_summary: "x".repeat(1500), context_primer: undefined }) } }), [/^builder\.checkpoint\.json: 2 validation warnings: .*\(and 1 more\)$/]],
  ],
});
