import { describe, expect, it } from "vitest";
import { assignLanes, laneLabel, shortId } from "../../../src/domains/report/lanes.js";
import { entry } from "./report-fixtures.js";

describe("waterfall lanes", () => {
  it("one lane per actor and session in order of first appearance, each subagent right after its session", () => {
    const entries = [
      entry(0, { session_id: "s1" }),
      entry(1, { session_id: "s2" }),
      entry(2, { session_id: "s1", agent_id: "a1", agent_type: "Explore" }),
      entry(3, { session_id: "s1", actor_type: "builder" }),
      entry(4, { session_id: "s2", agent_id: "a2", agent_type: "Plan", result: "error" }),
      entry(5, { session_id: "s1" }),
    ];
    const { lanes, laneOf } = assignLanes(entries);
    expect(lanes.map((l) => [l.actor_type, l.session_id, l.agent_id, l.parent])).toEqual([
      ["agent", "s1", null, null],
      ["agent", "s1", "a1", 0],
      ["agent", "s2", null, null],
      ["agent", "s2", "a2", 2],
      ["builder", "s1", null, null],
    ]);
    expect(Array.from(laneOf)).toEqual([0, 2, 1, 4, 3, 0]);
    expect(lanes[0]!.entries).toBe(2);
    expect(lanes[3]!.errors).toBe(1);
  });

  it("a subagent whose session made no calls of its own has no parent lane", () => {
    const { lanes } = assignLanes([entry(0, { agent_id: "a1" })]);
    expect(lanes).toHaveLength(1);
    expect(lanes[0]!.parent).toBeNull();
  });

  it("labels shorten long ids and name the subagent type", () => {
    expect(shortId("5f0c2a8e-1d3b-4c6a-9e7f-2b4d6f8a0c1e")).toBe("5f0c2a8e…");
    expect(shortId("sess-1")).toBe("sess-1");
    expect(laneLabel({ actor_type: "agent", session_id: "5f0c2a8e-1d3b-4c6a-9e7f-2b4d6f8a0c1e", agent_id: null, agent_type: null })).toBe("agent · 5f0c2a8e…");
    expect(laneLabel({ actor_type: "agent", session_id: "s1", agent_id: "a1", agent_type: null })).toBe("↳ subagent a1");
    expect(laneLabel({ actor_type: "", session_id: null, agent_id: null, agent_type: null })).toBe("(no actor)");
  });
});
