import { ckpt004Stale } from "../../../../src/domains/checkpoints/checks/ckpt-004-stale.js";
import { describeCheckpointCheck, healthyCheckpoint } from "./checkpoint-fixtures.js";

describeCheckpointCheck(ckpt004Stale, {
  severity: "warning",
  healthy: [
    ["in progress, updated an hour ago", (root) => ({ files: { builder: healthyCheckpoint("builder", root) } }), "no checkpoint is stale"],
    ["complete for ten days (threshold 14)", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { status: "complete", next_actions: [], created_at: "2026-02-01T00:00:00.000Z", updated_at: "2026-02-19T12:00:00.000Z" }) } }), "no checkpoint is stale"],
    ["failed long ago (failed never goes stale)", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { status: "failed", created_at: "2025-01-01T00:00:00.000Z", updated_at: "2025-01-01T00:00:00.000Z" }) } }), "no checkpoint is stale"],
  ],
  broken: [
    ["in progress for eight days (threshold 7)", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { created_at: "2026-02-01T00:00:00.000Z", updated_at: "2026-02-21T12:00:00.000Z" }) } }), [/^builder is in_progress and was last updated 8d ago \(threshold 7 days\)$/]],
    ["blocked for four days (threshold 3)", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { status: "blocked", blockers: [{ id: "ci", description: "CI down", needs: "external_dep" }], created_at: "2026-02-01T00:00:00.000Z", updated_at: "2026-02-25T12:00:00.000Z" }) } }), [/^builder is blocked and was last updated 4d ago \(threshold 3 days\)$/]],
  ],
});
