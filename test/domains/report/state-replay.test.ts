// The page's state at a step: the track's initial leaves with every change up to the step applied.
import { describe, expect, it } from "vitest";
import type { StateTrackView } from "../../../src/domains/report/report-types.js";
import { stateAfterStep } from "../../../src/domains/report/state-replay.js";

const pruned = { unknown: "pruned" };
const track: StateTrackView = {
  initial: [["lease", { unknown: "no lease yet" }]],
  steps: [
    [0, "acquired", [["lease", { unknown: "no lease yet" }, null], ["lease.owner", null, "alice"]]],
    [2, "created f", [["features.f.status", null, "active"], ["features.f.version", null, 1]]],
    [5, "unknown: pruned", [["features.f.status", "active", pruned], ["features.f.version", 1, pruned]]],
  ],
  through: 6,
  note: null,
};

describe("stateAfterStep", () => {
  it("applies the changes up to the step, and names the step's own changes", () => {
    expect(stateAfterStep(track, 0)).toEqual({ leaves: [["lease.owner", "alice"]], step: { effect: "acquired", changes: track.steps[0]![2] } });
    expect(stateAfterStep(track, 1)).toEqual({ leaves: [["lease.owner", "alice"]], step: null });
    expect(stateAfterStep(track, 4)!.leaves).toEqual([["features.f.status", "active"], ["features.f.version", 1], ["lease.owner", "alice"]]);
    expect(stateAfterStep(track, 6)!.leaves).toEqual([["features.f.status", pruned], ["features.f.version", pruned], ["lease.owner", "alice"]]);
  });

  it("a step the track does not reach (a live entry, a cut track) has no state", () => {
    expect(stateAfterStep(track, 7)).toBeNull();
  });
});
