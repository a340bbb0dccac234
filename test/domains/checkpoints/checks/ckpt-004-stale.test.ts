import { ckpt004Stale } from "../../../../src/domains/checkpoints/checks/ckpt-004-stale.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { checkpointCases, healthyCheckpoint } from "./checkpoint-fixtures.js";

testCheck(ckpt004Stale, {
  ...checkpointCases("warning"),
  valid: [
    { name: "in progress, updated an hour ago", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root) } }), ok: "no checkpoint is stale" },
    { name: "complete for ten days (threshold 14)", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root, { status: "complete", next_actions: [], created_at: "2026-02-01T00:00:00.000Z", updated_at: "2026-02-19T12:00:00.000Z" }) } }), ok: "no checkpoint is stale" },
    { name: "failed long ago (failed never goes stale)", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root, { status: "failed", created_at: "2025-01-01T00:00:00.000Z", updated_at: "2025-01-01T00:00:00.000Z" }) } }), ok: "no checkpoint is stale" },
  ],
  invalid: [
    { name: "in progress for eight days (threshold 7)", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root, { created_at: "2026-02-01T00:00:00.000Z", updated_at: "2026-02-21T12:00:00.000Z" }) } }), findings: [{ message: /^builder is in_progress and was last updated 8d ago \(threshold 7 days\)$/ }] },
    { name: "blocked for four days (threshold 3)", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root, { status: "blocked", blockers: [{ id: "ci", description: "CI down", needs: "external_dep" }], created_at: "2026-02-01T00:00:00.000Z", updated_at: "2026-02-25T12:00:00.000Z" }) } }), findings: [{ message: /^builder is blocked and was last updated 4d ago \(threshold 3 days\)$/ }] },
  ],
});
