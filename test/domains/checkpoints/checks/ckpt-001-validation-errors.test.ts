import { ckpt001ValidationErrors } from "../../../../src/domains/checkpoints/checks/ckpt-001-validation-errors.js";
import { describeCheckpointCheck, healthyCheckpoint } from "./checkpoint-fixtures.js";

describeCheckpointCheck(ckpt001ValidationErrors, {
  severity: "warning",
  healthy: [
    ["no checkpoints folder at all", () => ({}), "no checkpoints to check"],
    ["a valid checkpoint", (root) => ({ files: { builder: healthyCheckpoint("builder", root) } }), "1 checkpoint file valid"],
    ["a checkpoint with warnings only", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { context_primer: undefined }) } }), "1 checkpoint file valid"],
  ],
  broken: [
    ["invalid JSON", () => ({ files: { builder: "{ oops" } }), [/^builder\.checkpoint\.json: 1 validation error: is not valid JSON \(line 1, column 3/]],
    ["a bad status and a wrong skill in one file", (root) => ({ files: { builder: healthyCheckpoint("deployer", root, { status: "paused" }) } }), [/^builder\.checkpoint\.json: 2 validation errors: skill is .deployer. .*\(and 1 more\)$/]],
    ["two broken files, two findings", (root) => ({ files: { a: healthyCheckpoint("a", root, { phase: "" }), b: "[]" } }), [/^a\.checkpoint\.json: 1 validation error: phase must not be empty/, /^b\.checkpoint\.json: 1 validation error: must be a JSON object/]],
  ],
});
