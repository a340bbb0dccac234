import { ckpt006DoneTicketStillNext } from "../../../../src/domains/checkpoints/checks/ckpt-006-done-ticket-still-next.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { checkpointCases, healthyCheckpoint } from "./checkpoint-fixtures.js";

testCheck(ckpt006DoneTicketStillNext, {
  ...checkpointCases("warning"),
  valid: [
    { name: "a queued ticket still open in the table", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root, { progress_table: [{ id: "SHOP-7", label: "Refunds", status: "in_progress" }], next_actions: ["Finish SHOP-7"] }) } }), ok: "no finished ticket is still queued" },
    { name: "a queued PR the git log only mentions", workspace: (root) => ({ commits: ["Start on #12 (work in progress)"], files: { builder: healthyCheckpoint("builder", root, { next_actions: ["Land #12"] }) } }), ok: "no finished ticket is still queued" },
  ],
  invalid: [
    { name: "a ticket already complete in the progress table", workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root, { progress_table: [{ id: "tenancy", label: "Tenancy (SHOP-12)", status: "complete" }], next_actions: ["Close SHOP-12"] }) } }), findings: [{ message: /^builder: next_actions\[0\] names SHOP-12, which is already done \(progress_table row tenancy is complete\)$/ }] },
    {
      name: "a ticket complete in another skill's table (the evidence next uses too)",
      workspace: (root) => ({ files: { builder: healthyCheckpoint("builder", root, { next_actions: ["Merge PR #42"] }), reviewer: healthyCheckpoint("reviewer", root, { status: "complete", next_actions: [], progress_table: [{ id: "pr-42", label: "Land PR #42", status: "complete" }] }) } }),
      findings: [{ message: /^builder: next_actions\[0\] names #42, which is already done \(progress_table row pr-42 of reviewer is complete\)$/ }],
    },
    { name: "a PR the recent git log reports merged", workspace: (root) => ({ commits: ["Add refunds", "Merge pull request #40 from dana/refunds"], files: { builder: healthyCheckpoint("builder", root, { next_actions: ["Write docs", "Review PR #40"] }) } }), findings: [{ message: /^builder: next_actions\[1\] names #40, which is already done \(recent git log reports it finished\)$/ }] },
  ],
});
