import { describe, expect, it } from "vitest";
import { createGateProgress, renderStepTable } from "../../../src/adapters/cli/output/gate-format.js";
import { makeStyle } from "../../../src/adapters/cli/output/style.js";
import type { StepResult } from "../../../src/domains/evidence/evidence-types.js";

function fakeStream(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const s = { isTTY, text: "", write(chunk: string) { s.text += chunk; return true; } };
  return s as unknown as NodeJS.WriteStream & { text: string };
}

const result = (over: Partial<StepResult>): StepResult => ({ name: "tests", cmd: ["npm", "test"], exit_code: 0, timed_out: false, attempts: 1, skipped: false, skip_reason: null, started_at: "2026-01-01T00:00:00.000Z", finished_at: "2026-01-01T00:00:01.500Z", log_path: "logs/x.log", log_sha256: null, ...over });

describe("gate progress", () => {
  it("on a TTY: shows running steps with elapsed time, then one line per finished step", () => {
    const stream = fakeStream(true);
    const progress = createGateProgress(makeStyle(false), stream);
    progress.onEvent({ type: "run-start", steps: 2, waves: 2 });
    progress.onEvent({ type: "step-start", step: "tests", wave: 0 });
    expect(stream.text).toMatch(/running tests \d+ms {2}\[0\/2\]/);
    progress.onEvent({ type: "step-finish", step: "tests", result: result({}) });
    progress.onEvent({ type: "step-finish", step: "e2e", result: result({ name: "e2e", skipped: true, skip_reason: "dependency 'tests' failed", exit_code: null }) });
    progress.stop();
    expect(stream.text).toContain("pass tests 1.5s\n");
    expect(stream.text).toContain("skipped e2e dependency 'tests' failed\n");
  });

  it("off a TTY: writes nothing", () => {
    const stream = fakeStream(false);
    const progress = createGateProgress(makeStyle(false), stream);
    progress.onEvent({ type: "run-start", steps: 1, waves: 1 });
    progress.onEvent({ type: "step-start", step: "tests", wave: 0 });
    progress.onEvent({ type: "step-finish", step: "tests", result: result({}) });
    progress.stop();
    expect(stream.text).toBe("");
  });
});

describe("renderStepTable", () => {
  it("shows timeouts, failures with their exit code, and skip reasons", () => {
    const table = renderStepTable([result({ name: "slow", timed_out: true, exit_code: null }), result({ name: "bad", exit_code: 2 }), result({ name: "later", skipped: true, skip_reason: "an earlier step failed ('bad')", exit_code: null, started_at: null, finished_at: null })], makeStyle(false));
    expect(table).toMatch(/slow\s+TIMEOUT/);
    expect(table).toMatch(/bad\s+FAIL\s+2/);
    expect(table).toMatch(/later\s+skipped\s+an earlier step failed \('bad'\)/);
  });
});
