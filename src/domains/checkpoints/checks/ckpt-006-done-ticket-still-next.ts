// CKPT_006: a queued next action names a ticket or PR (#123, ABC-123) that is already done: a complete
// progress_table row names it, or a recent commit reports it fixed, closed or merged.
import type { DoctorCheck } from "../../doctor/index.js";
import { findingsOfKind } from "./checkpoint-doctor-results.js";

export const ckpt006DoneTicketStillNext: DoctorCheck = {
  id: "CKPT_006_DONE_TICKET_STILL_NEXT",
  severity: "warning",
  title: "No finished ticket is still queued as a next action",
  remediation: "mark the action done (`aop checkpoint done <skill>`) or remove it from next_actions",
  run: (ctx) => findingsOfKind(ctx, "done_ticket_still_next", () => "no finished ticket is still queued"),
};
