// I/O failures get their own codes (docs/hardening.md): a full disk is disk_full, a read-only file
// system permission_denied, a file where a folder should be file_corrupt — never internal_error — and a
// failed write leaves nothing half-done behind (no 0-byte lock, no temp file, no torn state).
// The full-disk and read-only cases run on a small tmpfs; where this process may not mount one (not
// root, or no CAP_SYS_ADMIN) they are skipped, and the skip says why.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { acquireLock } from "../../src/store/lock.js";
import { appendJsonLine } from "../../src/store/jsonl.js";
import { writeFileAtomic } from "../../src/store/atomic-write.js";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { TimelineWriter } from "../../src/domains/replay/timeline-writer.js";
import { runCli, runJson } from "../helpers/cli.js";
import { readTimelineLines, sequences } from "../helpers/timeline.js";
import { fillDisk as fillDiskAt, smallDisk } from "../helpers/full-disk.js";
import { tempWorkspace } from "../helpers/tmp.js";

const disk = smallDisk(4096);
const mountPoint = "dir" in disk ? disk.dir : "";
const why = "skip" in disk ? ` (skipped: ${disk.skip})` : "";

const fillDisk = () => fillDiskAt(mountPoint);
const freeDisk = () => fs.rmSync(path.join(mountPoint, "filler"), { force: true });

function allFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true }).map(String).sort();
}

describe.skipIf("skip" in disk)(`full disk and read-only file system on a 4 MiB tmpfs${why}`, () => {
  let root: string;
  let layout: WorkspaceLayout;

  beforeAll(() => {
    root = path.join(mountPoint, "ws");
    fs.mkdirSync(path.join(root, ".git"), { recursive: true });
    expect(runCli(["--root", root, "init"]).code).toBe(0);
    expect(runCli(["--root", root, "feature", "init", "feat_a"]).code).toBe(0);
    layout = new WorkspaceLayout(root);
  });

  it("a lock whose holder record cannot be written is removed at once (the next writer does not stall)", async () => {
    const lockPath = path.join(root, "x.lock");
    fillDisk();
    try {
      await expect(acquireLock(lockPath)).rejects.toMatchObject({ code: "disk_full", details: { path: lockPath } });
      expect(fs.existsSync(lockPath)).toBe(false);
    } finally {
      freeDisk();
    }
    (await acquireLock(lockPath, { timeoutMs: 200 }))();
  });

  it("whole-file writes and appends fail with disk_full and leave the target and folder as they were", () => {
    const file = path.join(root, "doc.json");
    writeFileAtomic(file, "before");
    const log = path.join(root, "log.jsonl");
    appendJsonLine(log, { n: 1 });
    const before = allFiles(root);
    fillDisk();
    try {
      expect(() => writeFileAtomic(file, "x".repeat(64 * 1024)), "writeFileAtomic").toThrow(expect.objectContaining({ code: "disk_full" }));
      expect(() => appendJsonLine(log, { n: 2, pad: "y".repeat(64 * 1024) }), "appendJsonLine").toThrow(expect.objectContaining({ code: "disk_full" }));
    } finally {
      freeDisk();
    }
    expect(fs.readFileSync(file, "utf8")).toBe("before");
    expect(allFiles(root)).toEqual(before); // no .doc.json.tmp-* left
  });

  it("the timeline writer fails every queued entry with disk_full, then continues gap-free once there is room", async () => {
    const writer = new TimelineWriter(layout, () => 1000);
    const entry = (op: string) => ({ ts: "2026-01-01T00:00:00.000Z", run_id: "run-disk", session_id: "run-disk", actor_type: "system", feature_id: null, tool_name: "x.y", mutating: false, operation_id: op, idempotency_status: "none" as const, request_hash: null, result: "ok" as const, error_code: op.padEnd(20_000, "-"), latency_ms: 1 });
    expect((await writer.append(entry("a"))).sequence).toBe(0);
    writer.close();
    fillDisk();
    let outcomes: PromiseSettledResult<unknown>[];
    try {
      outcomes = await Promise.allSettled([writer.append(entry("b")), writer.append(entry("c")), writer.append(entry("d"))]);
    } finally {
      freeDisk();
    }
    for (const o of outcomes) expect(o).toMatchObject({ status: "rejected", reason: { code: "disk_full" } });
    expect((await writer.append(entry("e"))).sequence).toBe(1);
    writer.close();
    const lines = readTimelineLines(layout, "run-disk");
    expect(sequences(lines)).toEqual([0, 1]);
    expect(lines.entries.map((e) => e.operation_id)).toEqual(["a", "e"]);
  });

  it("a mutating command on a full disk says disk_full; after freeing space its retry applies once", () => {
    fillDisk();
    let r;
    try {
      r = runCli(["--root", root, "feature", "init", "feat_b", "--json"]);
    } finally {
      freeDisk();
    }
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe("disk_full");
    expect(allFiles(root).filter((f) => f.endsWith(".lock") || f.includes(".tmp-"))).toEqual([]);
    expect(runCli(["--root", root, "feature", "init", "feat_b"]).code).toBe(0);
    expect(runJson<{ features: { feature_id: string }[] }>(["--root", root, "feature", "list"]).json.features.map((f) => f.feature_id)).toEqual(["feat_a", "feat_b"]);
  });

  it("a read-only file system is permission_denied", () => {
    execFileSync("mount", ["-o", "remount,ro", mountPoint]);
    let r;
    try {
      r = runCli(["--root", root, "feature", "set-status", "feat_a", "blocked", "--json"]);
    } finally {
      execFileSync("mount", ["-o", "remount,rw", mountPoint]);
    }
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "permission_denied", message: expect.stringMatching(/read-only \(EROFS/) });
  });
});

describe("a file where a folder is expected, and corrupt state files", () => {
  it.each([
    ["a file where .aop/features/ should be", ".aop/features", "not a folder", ["feature", "init", "feat_a"]],
    ["a corrupt feature index", ".aop/features/index.json", "{", ["feature", "list"]],
    ["a corrupt run lease", ".aop/runtime/default/run-lease.json", "[]", ["run", "status"]],
    ["a corrupt feature state", ".aop/features/feat_a/state.md", "---\nfeature_id: [\n---\n", ["feature", "show", "feat_a"]],
  ])("%s is file_corrupt with the path", (_name, rel, contents, args) => {
    const root = tempWorkspace();
    expect(runCli(["--root", root, "init"]).code).toBe(0);
    if (rel.includes("feat_a/")) expect(runCli(["--root", root, "feature", "init", "feat_a"]).code).toBe(0);
    fs.rmSync(path.join(root, rel), { recursive: true, force: true });
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), contents);
    const r = runJson<{ error: { code: string; message: string; details: { path: string } } }>(["--root", root, ...args]);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe("file_corrupt");
    expect(r.json.error.message).toContain(rel.split("/").slice(0, rel.endsWith("features") ? 2 : undefined).join("/"));
  });

  it("a corrupt idempotency record is file_corrupt", () => {
    const root = tempWorkspace();
    expect(runCli(["--root", root, "feature", "init", "feat_a", "--operation-id", "op-corrupt-01"]).code).toBe(0);
    const ledger = path.join(root, ".aop/runtime/operation-ledger");
    const record = allFiles(ledger).find((f) => f.endsWith(".json"))!;
    fs.writeFileSync(path.join(ledger, record), "{ not json");
    const r = runJson<{ error: { code: string; details: { path: string } } }>(["--root", root, "feature", "init", "feat_a", "--operation-id", "op-corrupt-01"]);
    expect(r.json.error).toMatchObject({ code: "file_corrupt", details: { path: expect.stringContaining("operation-ledger") } });
  });
});
