import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../../src/core/clock.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { freshCursor, readCursor, targetKey, writeCursor } from "../../../src/domains/export/export-cursor.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";

const KEY = targetKey("http://127.0.0.1:4318/v1/traces");
const TRACE = "0123456789abcdef0123456789abcdef";

function layout(): WorkspaceLayout {
  return new WorkspaceLayout(tempWorkspace());
}

describe("export cursors", () => {
  it("a missing cursor starts at sequence 0; a written one is read back, 0600, under .aop/runtime/export/", () => {
    const ws = layout();
    expect(readCursor(ws, "run:a", KEY, "t", TRACE)).toEqual(freshCursor("run:a", "t", TRACE));
    writeCursor(ws, KEY, { ...freshCursor("run:a", "t", TRACE), next_sequence: 12, spans_sent: 14 }, fixedClock("2026-05-01T00:00:00.000Z"));
    const file = ws.exportCursor("run:a", KEY);
    expect(path.relative(ws.root, file)).toBe(path.join(".aop", "runtime", "export", `run:a.${KEY}.cursor.json`));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readCursor(ws, "run:a", KEY, "shown", TRACE)).toMatchObject({ next_sequence: 12, spans_sent: 14, target: "shown", updated_at: "2026-05-01T00:00:00.000Z" });
  });

  it.each([
    ["not JSON", "{torn"],
    ["another run's cursor", JSON.stringify({ ...freshCursor("run:b", "t", TRACE) })],
    ["a negative sequence", JSON.stringify({ ...freshCursor("run:a", "t", TRACE), next_sequence: -1 })],
    ["no envelopes", JSON.stringify({ ...freshCursor("run:a", "t", TRACE), envelopes: null })],
    ["a trace id that is not one", JSON.stringify({ ...freshCursor("run:a", "t", TRACE), trace_id: 7 })],
  ])("%s is file_corrupt, saying how to start over", (_name, text) => {
    const ws = layout();
    fs.mkdirSync(ws.exportDir, { recursive: true });
    fs.writeFileSync(ws.exportCursor("run:a", KEY), text);
    expect(() => readCursor(ws, "run:a", KEY, "t", TRACE)).toThrow(expect.objectContaining({ code: "file_corrupt", hint: expect.stringContaining("delete it") }));
  });

  it("a cursor of another trace (a copied workspace, or written before trace ids held the workspace id) starts over", () => {
    const ws = layout();
    const clock = fixedClock("2026-05-01T00:00:00.000Z");
    writeCursor(ws, KEY, { ...freshCursor("run:a", "t", TRACE), next_sequence: 12, spans_sent: 14 }, clock);
    expect(readCursor(ws, "run:a", KEY, "t", TRACE).next_sequence).toBe(12);
    const other = "fedcba9876543210fedcba9876543210";
    expect(readCursor(ws, "run:a", KEY, "t", other)).toEqual(freshCursor("run:a", "t", other));
    const { trace_id: _dropped, ...older } = { ...freshCursor("run:a", "t", TRACE), next_sequence: 12, spans_sent: 14 };
    fs.writeFileSync(ws.exportCursor("run:a", KEY), JSON.stringify(older));
    expect(readCursor(ws, "run:a", KEY, "t", TRACE)).toEqual(freshCursor("run:a", "t", TRACE));
  });

  it("a FIFO where the cursor should be is refused without blocking", () => {
    const ws = layout();
    fs.mkdirSync(ws.exportDir, { recursive: true });
    execFileSync("mkfifo", [ws.exportCursor("run:a", KEY)]);
    expect(() => readCursor(ws, "run:a", KEY, "t", TRACE)).toThrow(expect.objectContaining({ code: "file_corrupt", message: expect.stringContaining("is a FIFO, not a regular file") }));
  });

  it("never reads or writes through a link out of the workspace", () => {
    const ws = layout();
    const outside = tempDir();
    fs.mkdirSync(ws.runtimeDir, { recursive: true });
    fs.symlinkSync(outside, ws.exportDir);
    expect(() => writeCursor(ws, KEY, freshCursor("run:a", "t", TRACE), fixedClock(0))).toThrow(expect.objectContaining({ code: "path_outside_workspace" }));
    expect(() => readCursor(ws, "run:a", KEY, "t", TRACE)).toThrow(expect.objectContaining({ code: "path_outside_workspace" }));
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it("a cursor file that is a link out of the workspace is refused", () => {
    const ws = layout();
    const outside = path.join(tempDir(), "elsewhere.json");
    fs.writeFileSync(outside, JSON.stringify(freshCursor("run:a", "t", TRACE)));
    fs.mkdirSync(ws.exportDir, { recursive: true });
    fs.symlinkSync(outside, ws.exportCursor("run:a", KEY));
    expect(() => readCursor(ws, "run:a", KEY, "t", TRACE)).toThrow(expect.objectContaining({ code: "path_outside_workspace" }));
  });
});
