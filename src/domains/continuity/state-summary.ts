// The sections of memory/CURRENT_STATE.md a next session reads first, from the workspace's own file
// (docs/continuity.md). Shared by the session orientation and the handoff note.
import type { WorkspaceLayout } from "../../store/layout.js";
import { readTextBounded } from "../../store/read-text-bounded.js";
import { readStateDocument, sectionValue, type RequiredSection } from "./state-document.js";
import { MAX_STATE_BYTES } from "./workspace-state.js";

export interface StateSummary {
  objective: string;
  current_step: string;
  next_action: string;
  blockers: string;
  unsurfaced_results: string;
  /** Required sections the file does not have. */
  missing_sections: string[];
}

/** The summary, or null when the file is absent, unreadable, too large or binary. */
export function readStateSummary(layout: WorkspaceLayout): StateSummary | null {
  const file = readTextBounded(layout.currentStateFile, MAX_STATE_BYTES);
  if (file.status !== "ok" || file.binary) return null;
  const doc = readStateDocument(file.text);
  const value = (name: RequiredSection) => {
    const section = doc.sections.get(name);
    return section ? sectionValue(section.body) : "";
  };
  return {
    objective: value("Objective"),
    current_step: value("Current Step"),
    next_action: value("Next Action"),
    blockers: value("Blockers"),
    unsurfaced_results: value("Unsurfaced Results"),
    missing_sections: [...doc.missing],
  };
}
