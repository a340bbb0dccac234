// replay.state_at and replay.search as kernel tools, in process through the one pipeline: the state a
// run's record gives at each step, and the hits a search finds in it (the CLI and MCP tests drive the
// same tools through their transports: test/adapters/cli/state-cli.test.ts, search.test.ts).
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../../src/core/clock.js";
import { createRuntime } from "../../../src/app/create-runtime.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { tempWorkspace } from "../../helpers/tmp.js";

const RUN = "run:tools-tt";

async function history() {
  const layout = new WorkspaceLayout(tempWorkspace());
  const runtime = await createRuntime({ layout, clock: fixedClock("2026-03-01T10:00:00.000Z"), identity: { actor: "orchestrator", run_id: RUN }, warn: () => undefined });
  const call = async (tool: string, args: Record<string, unknown>) => (await runtime.callTool(tool, args)).envelope;
  expect(await call("feature.init", { feature_id: "feat_tt", title: "Time travel", operation_id: "op-tt-0001" })).toMatchObject({ ok: true });
  expect(await call("feature.set_status", { feature_id: "feat_tt", status: "blocked", operation_id: "op-tt-0002" })).toMatchObject({ ok: true });
  expect(await call("feature.get", { feature_id: "feat_nowhere" })).toMatchObject({ ok: false, error: { code: "feature_not_found" } });
  return { call };
}

describe("replay.state_at", () => {
  it("gives the feature as the record had it after each step, and what a step changed", async () => {
    const { call } = await history();
    const first = (await call("replay.state_at", { run_id: RUN, sequence: 0 })) as { ok: true; data: { state: { features: Record<string, { status: unknown; version: unknown }> } } };
    expect(first.ok).toBe(true);
    expect(first.data.state.features.feat_tt).toMatchObject({ status: "active", version: 1 });
    const second = (await call("replay.state_at", { run_id: RUN, sequence: 1, diff_sequence: 0 })) as { ok: true; data: { state: { features: Record<string, { status: unknown; version: unknown }> }; diff: unknown } };
    expect(second.data.state.features.feat_tt).toMatchObject({ status: "blocked", version: 2 });
    expect(JSON.stringify(second.data.diff)).toContain("blocked");
    expect(await call("replay.state_at", { run_id: RUN, sequence: 99 })).toMatchObject({ ok: false, error: { code: "replay_sequence_out_of_range" } });
    expect(await call("replay.state_at", { run_id: "run:none", sequence: 0 })).toMatchObject({ ok: false, error: { code: "replay_run_not_found" } });
  });
});

describe("replay.search", () => {
  it("finds the failed call by its error code, with the command that opens it, and not the ones that passed", async () => {
    const { call } = await history();
    const found = (await call("replay.search", { query: "feature_not_found" })) as { ok: true; data: { hits: { run_id: string; sequence: number; result: string; open: string }[] } };
    expect(found.ok).toBe(true);
    const steps = found.data.hits.filter((h) => h.run_id === RUN);
    expect(steps.map((h) => [h.sequence, h.result])).toEqual([[2, "error"]]);
    expect(steps[0]!.open).toBe(`aop replay --run-id ${RUN} --from-sequence 2`);
    const errors = (await call("replay.search", { query: "", result: "error" })) as { ok: true; data: { hits: { sequence?: number }[] } };
    expect(errors.data.hits.map((h) => h.sequence)).not.toContain(0);
  });
});
