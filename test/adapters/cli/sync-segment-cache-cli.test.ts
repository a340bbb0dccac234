// The push's segment cache (docs/sync.md "Segment cache"): complete segments are remembered and not read
// again — unless the timeline was rewritten, replaced or truncated, when the pushed tree must still be the
// file's own bytes. Real git: a bare repository on local disk as the remote.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { TimelineWriter } from "../../../src/domains/replay/timeline-writer.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { writeLargeRun } from "../../helpers/large-runs.js";
import { bareRemote, cloneMachine, git, type Machine } from "../../helpers/sync-machines.js";

interface PushJson {
  status: string;
  commit: string;
}

/** The pushed segments of `run`, joined in order. */
function pushedTimeline(remote: string, commit: string, run: string): string {
  const names = git(remote, ["ls-tree", "--name-only", `${commit}:timelines/${run}`]).trim().split("\n").filter((n) => !n.endsWith(".ext.jsonl"));
  return names.map((n) => git(remote, ["cat-file", "blob", `${commit}:timelines/${run}/${n}`])).join("");
}

function push(m: Machine): string {
  const r = m.json<PushJson>(["sync", "push"]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.json.status).toBe("pushed");
  return r.json.commit;
}

async function append(root: string, n: number): Promise<void> {
  const writer = new TimelineWriter(new WorkspaceLayout(root), () => 1_000_000);
  for (let i = 0; i < n; i++) {
    await writer.append({ ts: new Date(Date.UTC(2026, 6, 1) + i).toISOString(), run_id: "big", session_id: "s", actor_type: "agent", feature_id: null, tool_name: "Read", mutating: false, operation_id: null, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 1 });
  }
  writer.close();
}

describe("aop sync push segment cache", () => {
  it("reuses complete segments of an appended timeline and re-reads a rewritten, replaced or truncated one", async () => {
    const { dir, remote } = bareRemote();
    const a = cloneMachine(dir, remote, "a");
    const layout = new WorkspaceLayout(a.root);
    const file = layout.timelineFile("big");
    writeLargeRun(layout, "big", 10_000);
    push(a);
    const cacheFile = `${layout.syncDir}/segments.json`;
    const cache = JSON.parse(fs.readFileSync(cacheFile, "utf8")) as { runs: Record<string, { firsts: number[]; end: number }> };
    expect(cache.runs.big!.firsts).toEqual([0, 4096]);
    const cut = (text: string) => text.split("\n").slice(0, 8192).join("\n") + "\n";
    expect(cache.runs.big!.end).toBe(Buffer.byteLength(cut(fs.readFileSync(file, "utf8"))));

    // Appended: the cached segments stand, the tree is the file.
    await append(a.root, 100);
    expect(pushedTimeline(remote, push(a), "big")).toBe(fs.readFileSync(file, "utf8"));

    // Rewritten in place (same inode, same size): a byte of the first line differs.
    const fd = fs.openSync(file, "r+");
    const first = fs.readFileSync(file, "utf8").split("\n")[0]!;
    const at = first.indexOf('"tool_name":"') + 13;
    fs.writeSync(fd, Buffer.from("X"), 0, 1, at);
    fs.closeSync(fd);
    expect(fs.readFileSync(file, "utf8").split("\n")[0]).not.toBe(first);
    expect(pushedTimeline(remote, push(a), "big")).toBe(fs.readFileSync(file, "utf8"));

    // Replaced (a new file, as a repair writes it): a line in the middle of the second segment differs.
    const lines = fs.readFileSync(file, "utf8").split("\n");
    lines[6000] = lines[6000]!.replace('"result":"', '"result":"z');
    fs.writeFileSync(`${file}.new`, lines.join("\n"));
    fs.renameSync(`${file}.new`, file);
    expect(pushedTimeline(remote, push(a), "big")).toBe(fs.readFileSync(file, "utf8"));

    // Truncated below the cached segments, then grown again past them with other lines.
    fs.truncateSync(file, 1000 + fs.readFileSync(file, "utf8").indexOf("\n", 0));
    const kept = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, kept.slice(0, kept.indexOf("\n") + 1));
    await append(a.root, 9000);
    expect(pushedTimeline(remote, push(a), "big")).toBe(fs.readFileSync(file, "utf8"));

    // A cache that names blobs the parent does not hold is not trusted: the push is still the file.
    const bad = JSON.parse(fs.readFileSync(cacheFile, "utf8")) as { runs: Record<string, { oids: string[] }> };
    bad.runs.big!.oids[0] = "0".repeat(40);
    fs.writeFileSync(cacheFile, JSON.stringify(bad));
    await append(a.root, 10);
    expect(pushedTimeline(remote, push(a), "big")).toBe(fs.readFileSync(file, "utf8"));
  });
});
