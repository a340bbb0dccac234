import { ckpt001ValidationErrors } from "../../../../src/domains/checkpoints/checks/ckpt-001-validation-errors.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { checkpointCases, healthyCheckpoint } from "./checkpoint-fixtures.js";

testCheck(ckpt001ValidationErrors, {
  ...checkpointCases("warning"),
  valid: [
    { name: "no checkpoints folder at all", workspace: () => ({}), ok: "no checkpoints to check" },
    { name: "a valid checkpoint", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root) } }), ok: "1 checkpoint file valid" },
    { name: "a checkpoint with warnings only", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root, { context_primer: undefined }) } }), ok: "1 checkpoint file valid" },
  ],
  invalid: [
    { name: "invalid JSON", workspace: () => ({ files: { builder: "{ oops" } }), findings: [{ message: /^builder\.checkpoint\.json: 1 validation error: is not valid JSON \(line 1, column 3/ }] },
    { name: "a bad status and a wrong skill in one file", workspace: (root) => ({ files: { builder: healthyCheckpoint("deployer", root, { status: "paused" }) } }), findings: [{ message: /^builder\.checkpoint\.json: 2 validation errors: skill is .deployer. .*\(and 1 more\)$/ }] },
    { name: "two broken files, two findings", workspace: (root) => ({ files: { a: healthyCheckpoint("a", root, { phase: "" }), b: "[]" } }), findings: [{ message: /^a\.checkpoint\.json: 1 validation error: phase must not be empty/ }, { message: /^b\.checkpoint\.json: 1 validation error: must be a JSON object/ }] },
  ],
});
