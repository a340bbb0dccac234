// The handoff note's schema and the checklist `aop handoff` applies (pure).
import { describe, expect, it } from "vitest";
import { handoffChecklist, parseHandoffNote } from "../../../src/domains/handoff/index.js";

const NOTE = {
  version: 1,
  created_at: "2026-12-01T10:00:00.000Z",
  workspace_id: "a".repeat(32),
  display_name: "alice@laptop",
  objective: "Ship the login API",
  next_action: "Fix the refresh test",
  open_decisions: ["api/b1: Postgres or SQLite?"],
  last_run: { run_id: "run:a", last_sequence: 12, last_result: "ok" },
  evidence_heads: { feat_a: { length: 2, head: `sha256:${"c".repeat(64)}` } },
  checkpoint: { skill: "api", summary: "login done" },
  message: null,
  checklist_failures: [],
};

describe("handoff note schema", () => {
  it("accepts a full note and one with nothing run, chained or checkpointed", () => {
    expect(parseHandoffNote(JSON.stringify(NOTE))).toEqual(NOTE);
    const bare = { ...NOTE, last_run: null, evidence_heads: {}, checkpoint: null, open_decisions: [] };
    expect(parseHandoffNote(JSON.stringify(bare))).toEqual(bare);
  });
  it.each([
    [{ ...NOTE, version: 2 }, /version/],
    [{ ...NOTE, workspace_id: "x" }, /workspace_id/],
    [{ ...NOTE, evidence_heads: { "../x": { length: 1, head: `sha256:${"c".repeat(64)}` } } }, /evidence_heads/],
    [{ ...NOTE, last_run: { run_id: "a/b", last_sequence: 1, last_result: "ok" } }, /last_run/],
    [{ ...NOTE, extra: true }, /additional/],
    [{ ...NOTE, next_action: "x".repeat(5000) }, /next_action/],
  ])("refuses %#", (note, problem) => {
    const parsed = parseHandoffNote(JSON.stringify(note));
    expect("problem" in parsed && parsed.problem).toMatch(problem);
  });
});

describe("handoff checklist", () => {
  const state = { objective: "o", current_step: "s", next_action: "n", missing_sections: [] };
  const checkpoint = { skill: "api", status: "in_progress", next_action: "do it", progress_summary: "half" };
  it("passes when the state and the checkpoint say where the work stands", () => {
    expect(handoffChecklist({ state, checkpoint, missingSkill: null }).every((i) => i.ok)).toBe(true);
  });
  it("names each gap with its fix", () => {
    const items = handoffChecklist({ state: { ...state, next_action: "", missing_sections: ["Blockers"] }, checkpoint: { ...checkpoint, next_action: null }, missingSkill: null });
    expect(items.filter((i) => !i.ok).map((i) => i.item)).toEqual(["memory/CURRENT_STATE.md has every required section", "memory/CURRENT_STATE.md states the next action", "checkpoint api queues its next action"]);
    expect(items.find((i) => i.item.includes("required section"))!.fix).toBe("add the section Blockers to memory/CURRENT_STATE.md");
  });
  it("a complete checkpoint needs no next action; a missing --skill is named", () => {
    expect(handoffChecklist({ state, checkpoint: { ...checkpoint, status: "complete", next_action: null }, missingSkill: null }).every((i) => i.ok)).toBe(true);
    const items = handoffChecklist({ state, checkpoint: null, missingSkill: "qa" });
    expect(items.filter((i) => !i.ok).map((i) => i.item)).toEqual(["a checkpoint of skill 'qa' exists"]);
  });
});
