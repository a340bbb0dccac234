// A mutating call killed right after it changed a file, then retried with the same operation id: applied
// once or refused with operation_interrupted, never twice (docs/kernel.md, "Crash safety"). No crash hook
// here: the process is killed from outside the moment state.md changes, as a crash would.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startWorker } from "../helpers/processes.js";
import { runJson } from "../helpers/cli.js";
import { tempWorkspace } from "../helpers/tmp.js";
import { CLI_BIN } from "../helpers/paths.js";

describe("a call killed the moment its change reaches the disk", () => {
  it("feature set-status, killed as state.md is rewritten: the retry never applies it a second time", async () => {
    const root = tempWorkspace();
    expect(runJson(["feature", "init", "f1", "--root", root]).code).toBe(0);
    const state = path.join(root, ".aop", "features", "f1", "state.md");
    let killedCount = 0;
    for (let i = 0; i < 5; i++) {
      const op = `op-kill-on-change-${i}`;
      const before = runJson<{ feature: { version: number } }>(["feature", "show", "f1", "--root", root]).json.feature.version;
      const worker = startWorker("kill-on-change.mjs", [CLI_BIN, state, "feature", "set-status", "f1", i % 2 === 0 ? "blocked" : "active", "--operation-id", op, "--root", root]);
      const outcome = (await worker.done).stdout.trim();
      if (outcome === "killed") killedCount += 1;
      const retry = runJson<{ ok?: boolean; error?: { code: string } }>(["feature", "set-status", "f1", i % 2 === 0 ? "blocked" : "active", "--operation-id", op, "--root", root]);
      const after = runJson<{ feature: { version: number } }>(["feature", "show", "f1", "--root", root]).json.feature.version;
      expect(after, `try ${i} (${outcome}): version ${before} → ${after}`).toBe(before + 1);
      if (retry.code !== 0) expect(retry.json.error?.code).toBe("operation_interrupted");
    }
    expect(killedCount).toBeGreaterThan(0);
  });
});
