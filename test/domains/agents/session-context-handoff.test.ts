// The orientation with a pulled handoff newer than the workspace's own work: it leads, its pulled text escaped (pure).
import { describe, expect, it } from "vitest";
import { renderSessionContext } from "../../../src/domains/agents/session-context.js";
import type { HandoffNote } from "../../../src/domains/handoff/index.js";

const NOTE: HandoffNote = {
  version: 1,
  created_at: "2026-12-03T16:28:20.967Z",
  workspace_id: "a".repeat(32),
  display_name: "alice@laptop",
  objective: "Ship the login API",
  next_action: "Fix the refresh test \u001b[2J now",
  open_decisions: ["api/b1: Postgres or SQLite?"],
  last_run: null,
  evidence_heads: {},
  checkpoint: null,
  message: "CI only",
  checklist_failures: [],
};

const STATE = { objective: "Local objective", current_step: "s", next_action: "Local next", blockers: "", unsurfaced_results: "", missing_sections: [] };

describe("session context with a pulled handoff", () => {
  it("opens with the origin's next action and objective, before this workspace's own state", () => {
    const text = renderSessionContext({ checkpoints: [], state: STATE, critical: [], handoff: { origin: "alice@laptop", note: NOTE } });
    const lines = text.split("\n");
    expect(lines[1]).toBe("Handoff from alice@laptop (2026-12-03T16:28:20.967Z) is newer than this workspace's own work — resume from it (details: `aop resume --from alice@laptop`):");
    expect(lines[2]).toBe("- Next action: Fix the refresh test \\x1b[2J now");
    expect(lines[3]).toBe("- Objective: Ship the login API");
    expect(lines).toContain("- Open decision: api/b1: Postgres or SQLite?");
    expect(text.indexOf("Handoff from")).toBeLessThan(text.indexOf("Local objective"));
    expect(text).not.toContain("\u001b");
  });

  it("is absent without one", () => {
    expect(renderSessionContext({ checkpoints: [], state: STATE, critical: [], handoff: null })).not.toContain("Handoff from");
  });
});
