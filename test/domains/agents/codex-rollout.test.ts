// Codex's PostToolUse payload carries no exit status (payloads/codex/PostToolUse-exit-3.json: the output
// text alone); its rollout, as it stood when Codex ran that hook (captured from Codex 0.171), holds the
// call's end with status and exit code. The hook reads it there.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commandOutcomeIn, readCommandOutcome } from "../../../src/domains/agents/codex-rollout.js";
import { mapCodex } from "../../../src/domains/agents/hook-clients/codex.js";
import { entryForToolCall, withCommandOutcome, type HookEvent } from "../../../src/domains/agents/hook-model.js";
import { REPO_ROOT } from "../../helpers/paths.js";
import { tempDir } from "../../helpers/tmp.js";

const DIR = path.join(REPO_ROOT, "test/adapters/hooks/payloads/codex");
const ROLLOUT = path.join(DIR, "rollout-at-PostToolUse-exit-3.jsonl");
const lines = fs.readFileSync(ROLLOUT, "utf8").trimEnd().split("\n");

describe("a Codex shell call's outcome, from its rollout", () => {
  it("the payload alone cannot tell: its response is the output text", () => {
    const p = JSON.parse(fs.readFileSync(path.join(DIR, "PostToolUse-exit-3.json"), "utf8")) as Record<string, unknown>;
    expect(p.tool_response).toBe("err\nout\n");
    const m = mapCodex(p);
    expect("event" in m && m.event.kind).toBe("tool_after");
  });

  it("finds the call's end by its id: status failed, exit code 3", () => {
    expect(commandOutcomeIn(lines, "call_fake_1")).toEqual({ failed: true, exit_status: 3 });
    expect(readCommandOutcome(ROLLOUT, "call_fake_1")).toEqual({ failed: true, exit_status: 3 });
    // A command that succeeded is never recorded as failed.
    const ok = lines.map((l) => l.replace('"status":"failed"', '"status":"completed"').replace('"exit_code":3', '"exit_code":0'));
    expect(commandOutcomeIn(ok, "call_fake_1")).toEqual({ failed: false, exit_status: 0 });
  });

  it("says nothing when the rollout does not tell: another call, no such file, a broken line", () => {
    expect(commandOutcomeIn(lines, "call_fake_9")).toBeNull();
    expect(commandOutcomeIn(lines, "call_fake_")).toBeNull();
    expect(readCommandOutcome(path.join(tempDir("aop-rollout-"), "missing.jsonl"), "call_fake_1")).toBeNull();
    expect(commandOutcomeIn(['{"payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"call_fake_1"', ""], "call_fake_1")).toBeNull();
  });

  it("the entry: an error with code command_exit_nonzero and the exit status beside it", () => {
    const p = JSON.parse(fs.readFileSync(path.join(DIR, "PostToolUse-exit-3.json"), "utf8")) as Record<string, unknown>;
    const m = mapCodex(p) as { event: HookEvent };
    const failed = withCommandOutcome(m.event, commandOutcomeIn(lines, "call_fake_1"));
    expect(entryForToolCall("codex", failed, "codex-x", 0)).toMatchObject({ tool_name: "Bash", result: "error", error_code: "command_exit_nonzero", operation_id: "call_fake_1", ext: { client: "codex", exit_status: 3 } });
    expect(entryForToolCall("codex", withCommandOutcome(m.event, null), "codex-x", 0)).toMatchObject({ result: "ok", error_code: null, ext: { client: "codex" } });
  });
});
