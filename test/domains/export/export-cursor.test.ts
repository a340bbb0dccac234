import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../../src/core/clock.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { freshCursor, readCursor, targetKey, writeCursor } from "../../../src/domains/export/export-cursor.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";

const KEY = targetKey("http://127.0.0.1:4318/v1/traces");

function layout(): WorkspaceLayout {
  return new WorkspaceLayout(tempWorkspace());
}

describe("export cursors", () => {
  it("a missing cursor starts at sequence 0; a written one is read back, 0600, under .aop/runtime/export/", () => {
    const ws = layout();
    expect(readCursor(ws, "run:a", KEY, "t")).toEqual(freshCursor("run:a", "t"));
    writeCursor(ws, KEY, { ...freshCursor("run:a", "t"), next_sequence: 12, spans_sent: 14 }, fixedClock("2026-05-01T00:00:00.000Z"));
    const file = ws.exportCursor("run:a", KEY);
    expect(path.relative(ws.root, file)).toBe(path.join(".aop", "runtime", "export", `run:a.${KEY}.cursor.json`));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readCursor(ws, "run:a", KEY, "shown")).toMatchObject({ next_sequence: 12, spans_sent: 14, target: "shown", updated_at: "2026-05-01T00:00:00.000Z" });
  });

  it.each([
    ["not JSON", "{torn"],
    ["another run's cursor", JSON.stringify({ ...freshCursor("run:b", "t") })],
    ["a negative sequence", JSON.stringify({ ...freshCursor("run:a", "t"), next_sequence: -1 })],
    ["no envelopes", JSON.stringify({ ...freshCursor("run:a", "t"), envelopes: null })],
  ])("%s is file_corrupt, saying how to start over", (_name, text) => {
    const ws = layout();
    fs.mkdirSync(ws.exportDir, { recursive: true });
    fs.writeFileSync(ws.exportCursor("run:a", KEY), text);
    expect(() => readCursor(ws, "run:a", KEY, "t")).toThrow(expect.objectContaining({ code: "file_corrupt", hint: expect.stringContaining("delete it") }));
  });

  it("a FIFO where the cursor should be is refused without blocking", () => {
    const ws = layout();
    fs.mkdirSync(ws.exportDir, { recursive: true });
    execFileSync("mkfifo", [ws.exportCursor("run:a", KEY)]);
    expect(() => readCursor(ws, "run:a", KEY, "t")).toThrow(expect.objectContaining({ code: "file_corrupt", message: expect.stringContaining("is a FIFO, not a regular file") }));
  });

  it("never reads or writes through a link out of the workspace", () => {
    const ws = layout();
    const outside = tempDir();
    fs.mkdirSync(ws.runtimeDir, { recursive: true });
    fs.symlinkSync(outside, ws.exportDir);
    expect(() => writeCursor(ws, KEY, freshCursor("run:a", "t"), fixedClock(0))).toThrow(expect.objectContaining({ code: "path_outside_workspace" }));
    expect(() => readCursor(ws, "run:a", KEY, "t")).toThrow(expect.objectContaining({ code: "path_outside_workspace" }));
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it("a cursor file that is a link out of the workspace is refused", () => {
    const ws = layout();
    const outside = path.join(tempDir(), "elsewhere.json");
    fs.writeFileSync(outside, JSON.stringify(freshCursor("run:a", "t")));
    fs.mkdirSync(ws.exportDir, { recursive: true });
    fs.symlinkSync(outside, ws.exportCursor("run:a", KEY));
    expect(() => readCursor(ws, "run:a", KEY, "t")).toThrow(expect.objectContaining({ code: "path_outside_workspace" }));
  });
});
