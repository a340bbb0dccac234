import { ckpt006DoneTicketStillNext } from "../../../../src/domains/checkpoints/checks/ckpt-006-done-ticket-still-next.js";
import { describeCheckpointCheck, healthyCheckpoint } from "./checkpoint-fixtures.js";

describeCheckpointCheck(ckpt006DoneTicketStillNext, {
  severity: "warning",
  healthy: [
    ["a queued ticket still open in the table", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { progress_table: [{ id: "SHOP-7", label: "Refunds", status: "in_progress" }], next_actions: ["Finish SHOP-7"] }) } }), "no finished ticket is still queued"],
    ["a queued PR the git log only mentions", (root) => ({ commits: ["Start on #12 (work in progress)"], files: { builder: healthyCheckpoint("builder", root, { next_actions: ["Land #12"] }) } }), "no finished ticket is still queued"],
  ],
  broken: [
    ["a ticket already complete in the progress table", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { progress_table: [{ id: "tenancy", label: "Tenancy (SHOP-12)", status: "complete" }], next_actions: ["Close SHOP-12"] }) } }), [/^builder: next_actions\[0\] names SHOP-12, which is already done \(progress_table row tenancy is complete\)$/]],
    [
      "a ticket complete in another skill's table (the evidence next uses too)",
      (root) => ({ files: { builder: healthyCheckpoint("builder", root, { next_actions: ["Merge PR #42"] }), reviewer: healthyCheckpoint("reviewer", root, { status: "complete", next_actions: [], progress_table: [{ id: "pr-42", label: "Land PR #42", status: "complete" }] }) } }),
      [/^builder: next_actions\[0\] names #42, which is already done \(progress_table row pr-42 of reviewer is complete\)$/],
    ],
    ["a PR the recent git log reports merged", (root) => ({ commits: ["Add refunds", "Merge pull request #40 from dana/refunds"], files: { builder: healthyCheckpoint("builder", root, { next_actions: ["Write docs", "Review PR #40"] }) } }), [/^builder: next_actions\[1\] names #40, which is already done \(recent git log reports it finished\)$/]],
  ],
});
