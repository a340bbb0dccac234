// listRuns lists every run: one whose timeline cannot be read carries its problem instead of counts, so
// the listing, the report and the export go on with the others (DESIGN §23).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listRuns } from "../../../src/domains/replay/run-list.js";
import { unreadableRun } from "../../../src/domains/export/run-selection.js";
import { AopError } from "../../../src/core/errors.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";

const LINE = JSON.stringify({ sequence: 0, ts: "2026-05-05T05:05:05.000Z", run_id: "good", session_id: "good", actor_type: "system", feature_id: null, tool_name: "x.y", mutating: false, operation_id: null, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 1 }) + "\n";

describe("listRuns", () => {
  it("lists a run it cannot read with the problem and code, and the readable ones as before", async () => {
    const layout = new WorkspaceLayout(tempWorkspace());
    fs.mkdirSync(layout.replayDir, { recursive: true });
    fs.writeFileSync(layout.timelineFile("good"), LINE);
    const away = path.join(tempDir(), "x.timeline.jsonl");
    fs.writeFileSync(away, LINE);
    fs.symlinkSync(away, layout.timelineFile("linked"));
    execFileSync("mkfifo", [layout.timelineFile("fifo")]);
    fs.mkdirSync(layout.timelineFile("folder"));
    const runs = new Map((await listRuns(layout)).map((r) => [r.run_id, r]));
    expect(runs.get("good")).toMatchObject({ entries: 1, errors: 0, started_at: "2026-05-05T05:05:05.000Z", problem: null });
    expect(runs.get("linked")).toMatchObject({ entries: 0, started_at: null, problem: expect.stringMatching(/leads outside the workspace .* \[path_outside_workspace\]$/) });
    expect(runs.get("fifo")!.problem).toBe("is a FIFO, not a regular file: not read [not_a_regular_file]");
    expect(runs.get("folder")!.problem).toBe("is a folder, not a regular file: not read [not_a_regular_file]");
  });
});

describe("unreadableRun", () => {
  it("turns a refusal of the run's timeline into a skip note, and lets every other error through", () => {
    const layout = new WorkspaceLayout(tempWorkspace());
    const timeline = layout.timelineFile("r1");
    const refused = new AopError("not_a_regular_file", "x is a FIFO", { details: { path: timeline, reason: "is a FIFO, not a regular file: not read" } });
    expect(unreadableRun(layout, "r1", refused)).toEqual({ run_id: "r1", problem: "timeline file is a FIFO, not a regular file: not read [not_a_regular_file]" });
    expect(unreadableRun(layout, "r1", new AopError("path_outside_workspace", "x leads outside", { details: { path: timeline } }))).toEqual({ run_id: "r1", problem: "x leads outside [path_outside_workspace]" });
    // Another run's timeline, the export folder, the endpoint, a bug: not this run's unreadable timeline.
    expect(unreadableRun(layout, "r2", refused)).toBeNull();
    expect(unreadableRun(layout, "r1", new AopError("path_outside_workspace", "export/ leads outside", { details: { path: path.join(layout.aopDir, "runtime/export") } }))).toBeNull();
    expect(unreadableRun(layout, "r1", new AopError("export_failed", "the endpoint said 503"))).toBeNull();
    expect(unreadableRun(layout, "r1", new Error("bug"))).toBeNull();
  });
});
