import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import "../helpers/workers-env.js";
import { startWorker, waitForOutput } from "../helpers/processes.js";
import { tempDir } from "../helpers/tmp.js";
import { createWorkspaceFolder, ensureDir, writeFileAtomic } from "../../src/store/atomic-write.js";
import { WorkspaceLayout } from "../../src/store/layout.js";

describe("writeFileAtomic", () => {
  it("writes the contents and leaves no temp file", () => {
    const dir = tempDir();
    const file = path.join(dir, "sub", "a.json");
    writeFileAtomic(file, "hello");
    expect(fs.readFileSync(file, "utf8")).toBe("hello");
    expect(fs.readdirSync(path.dirname(file))).toEqual(["a.json"]);
  });

  it("creates files under .aop/runtime/ with mode 0600", () => {
    const dir = tempDir();
    const file = path.join(dir, ".aop", "runtime", "x.json");
    writeFileAtomic(file, "{}");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("a writer killed mid-write never leaves a partial target file: always one whole version", async () => {
    const dir = tempDir();
    const target = path.join(dir, "big.json");
    const versions: number[] = [];
    for (let trial = 0; trial < 5; trial++) {
      const worker = startWorker("atomic-writer.mjs", [target]);
      await waitForOutput(worker.child, "writing"); // one complete write is done: the target exists from here on
      await new Promise((r) => setTimeout(r, 40 + Math.random() * 120));
      worker.child.kill("SIGKILL");
      await worker.done;
      const parsed = JSON.parse(fs.readFileSync(target, "utf8")) as { i: number; fill: string };
      expect(parsed.fill).toBe(String((parsed.i - 1) % 10).repeat(2 * 1024 * 1024));
      versions.push(parsed.i);
    }
    expect(versions.every((v) => v >= 1)).toBe(true);
  }, 60_000);
});

describe("folders below a workspace root that does not exist", () => {
  it("are refused with workspace_not_found, and nothing is created: a removed workspace stays removed", () => {
    const root = path.join(tempDir(), "ws");
    fs.mkdirSync(root);
    const layout = new WorkspaceLayout(root);
    ensureDir(layout.replayDir);
    fs.rmSync(root, { recursive: true });
    for (const write of [() => ensureDir(layout.replayDir), () => writeFileAtomic(layout.timelineMeta("run-a"), "{}")]) {
      expect(write).toThrow(expect.objectContaining({ code: "workspace_not_found", details: expect.objectContaining({ root }) }));
      expect(fs.existsSync(root)).toBe(false);
    }
  });

  it("a folder that exists is used as it is; createWorkspaceFolder makes a new root with its parents", () => {
    const root = path.join(tempDir(), "new", "ws");
    const layout = new WorkspaceLayout(root);
    expect(() => ensureDir(layout.replayDir)).toThrow(expect.objectContaining({ code: "workspace_not_found" }));
    createWorkspaceFolder(root);
    ensureDir(layout.replayDir);
    ensureDir(layout.replayDir);
    expect(fs.statSync(layout.replayDir).isDirectory()).toBe(true);
  });

  it("the folder holding a named checkpoints folder is not a workspace: its parents are created as before", () => {
    const root = tempDir();
    const checkpointsDir = path.join(tempDir(), "elsewhere", "project", ".checkpoints");
    const layout = new WorkspaceLayout(root, { checkpointsDir });
    ensureDir(layout.checkpointsDir);
    expect(fs.statSync(checkpointsDir).isDirectory()).toBe(true);
  });
});
