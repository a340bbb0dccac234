// Which tickets and pull requests (`#123`, `ABC-123`) are already finished, by the evidence both `next`
// and the doctor's CKPT_006 use: a `complete` progress_table row naming them, in any checkpoint of the
// folder, and recent commits reporting them finished (ticketsDoneInLog). Pure: git's log arrives as data.
import { ticketRefs } from "./ticket-refs.js";

/** Where a ticket shows as finished: a complete row of some skill's table, or the git log. */
export type DoneEvidence = { skill: string; row: string } | "git";

export type DoneTickets = ReadonlyMap<string, DoneEvidence>;

export interface EvidenceSource {
  skill: string;
  document: Record<string, unknown>;
}

/** Finished tickets from the complete rows of every checkpoint, then from git (rows win: they name where). */
export function doneTickets(sources: readonly EvidenceSource[], doneInGit: ReadonlySet<string>): Map<string, DoneEvidence> {
  const done = new Map<string, DoneEvidence>();
  for (const { skill, document } of sources) {
    const rows = document.progress_table;
    if (!Array.isArray(rows)) continue;
    for (const row of rows) {
      if (row === null || typeof row !== "object" || (row as Record<string, unknown>).status !== "complete") continue;
      const r = row as Record<string, unknown>;
      for (const ref of ticketRefs(`${String(r.id ?? "")} ${String(r.label ?? "")}`)) {
        if (!done.has(ref)) done.set(ref, { skill, row: String(r.id) });
      }
    }
  }
  for (const ref of doneInGit) if (!done.has(ref)) done.set(ref, "git");
  return done;
}

/** "progress_table row tenancy is complete" (of `skill`'s own table) / "… of builder …" / the git log. */
export function describeDone(evidence: DoneEvidence, skill: string): string {
  if (evidence === "git") return "recent git log reports it finished";
  return `progress_table row ${evidence.row}${evidence.skill === skill ? "" : ` of ${evidence.skill}`} is complete`;
}

/** The first finished ticket a text names, or null. */
export function finishedTicketIn(text: string, done: DoneTickets): string | null {
  if (done.size === 0) return null;
  for (const ref of ticketRefs(text)) if (done.has(ref)) return ref;
  return null;
}
