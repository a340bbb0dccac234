// readSparse: every sequence of a run in order, only the lines asked for parsed in full, with the rules of
// readEntriesFrom for torn, unparseable, foreign-shaped and out-of-order lines.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { readSparse } from "../../../src/domains/replay/timeline-sparse.js";
import { serializeEntry } from "../../../src/domains/replay/timeline-entry.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { tempWorkspace } from "../../helpers/tmp.js";

function entry(i: number) {
  return { ts: `2026-12-01T10:00:0${i}.000Z`, run_id: "r", session_id: "s", actor_type: "orchestrator" as const, feature_id: null, tool_name: i === 2 ? "feature.init" : "feature.get", mutating: i === 2, operation_id: i === 2 ? "op-2-xxxxxx" : null, idempotency_status: (i === 2 ? "new" : "none") as "new" | "none", request_hash: null, result: "ok" as const, error_code: null, latency_ms: 1 };
}

describe("readSparse", () => {
  it("yields every sequence, parses what it is asked to, and skips what readEntriesFrom skips", () => {
    const layout = new WorkspaceLayout(tempWorkspace());
    fs.mkdirSync(layout.replayDir, { recursive: true });
    // A foreign key order (sequence first) is parsed whatever `parse` says; a duplicate and a broken line are left out.
    const foreign = JSON.stringify({ sequence: 3, ...entry(3) });
    const text = [serializeEntry(entry(0), 0), serializeEntry(entry(1), 1), "{broken\n", serializeEntry(entry(2), 2), serializeEntry(entry(1), 1), foreign + "\n", serializeEntry(entry(4), 4), '{"ts":"2026-12-01T10:00:05.000Z","sequence":5,"run'].join("");
    fs.writeFileSync(layout.timelineFile("r"), text);
    const asked: number[] = [];
    const lines = [...readSparse(layout, "r", (sequence, line) => (asked.push(sequence), line.includes('"mutating":true')))];
    expect(lines.map((l) => [l.sequence, l.entry?.tool_name ?? null])).toEqual([[0, null], [1, null], [2, "feature.init"], [3, "feature.get"], [4, null]]);
    expect(asked).toEqual([0, 1, 2, 1, 4]);
  });

  it("steps over a line shorter than where the writer's sequence key sits, and reads an instant shorter than the writer's", () => {
    const layout = new WorkspaceLayout(tempWorkspace());
    fs.mkdirSync(layout.replayDir, { recursive: true });
    const short = '{"ts":"2026-12-01T10:00:06Z","sequence":6}'; // 42 bytes, not an entry: parsed and left out
    fs.writeFileSync(layout.timelineFile("r"), [serializeEntry(entry(0), 0), short, "\n", serializeEntry({ ...entry(1), ts: "2026-12-01T10:00:07Z" }, 7)].join(""));
    expect([...readSparse(layout, "r", () => false)].map((l) => l.sequence)).toEqual([0, 7]);
  });
});
