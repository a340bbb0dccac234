import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { TimelineFile } from "../../../src/domains/replay/index.js";
import { addLine, candidates, emptyIndex, loadIndex, saveIndex, type RunIndex } from "../../../src/domains/search/search-index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A run's timeline of `lines` lines and its index written to disk; also the index as built in memory. */
function indexed(tokens: string[][]): { layout: WorkspaceLayout; timeline: TimelineFile; built: RunIndex } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "aop-search-index-"));
  dirs.push(root);
  const layout = new WorkspaceLayout(root);
  fs.mkdirSync(layout.replayDir, { recursive: true });
  const lines = tokens.map((t, i) => JSON.stringify({ n: i, t: t.join(" ") }) + "\n");
  fs.writeFileSync(layout.timelineFile("run-1"), lines.join(""));
  const timeline = TimelineFile.open(layout.timelineFile("run-1"))!;
  const built = emptyIndex("run-1", timeline);
  let offset = 0;
  tokens.forEach((t, i) => {
    addLine(built, offset, new Set(t));
    offset += Buffer.byteLength(lines[i]!);
  });
  built.file_size = offset;
  expect(saveIndex(layout, built, timeline)).toBe(true);
  return { layout, timeline, built };
}

describe("the search index as read (postings looked up in its text)", () => {
  const TOKENS = [["login", "page", "op1"], ["logout", "café"], ["page", "lint"], ["op12", "login"], ...Array.from({ length: 5000 }, () => ["common"])];
  const WORDS = [["login"], ["log"], ["page", "login"], ["op1"], ["op12"], ["caf"], ["café"], ["zzz"], ["common"], ["common", "lint"], ["c"], []];

  it("names the same candidates as the whole index parsed", () => {
    const { layout, timeline, built } = indexed(TOKENS);
    for (const words of WORDS) {
      const loaded = loadIndex(layout, "run-1", timeline)!;
      expect(loaded.postings).toBeNull(); // not parsed to answer a lookup
      expect(candidates(loaded, words), words.join(" ")).toEqual(candidates(built, words));
    }
    expect(candidates(built, ["log"])).toEqual([0, candidates(built, ["logout"])![0], candidates(built, ["op12"])![0]].sort((a, b) => a! - b!));
    timeline.close();
  });

  it("reads every line when the postings are damaged, and drops the file", () => {
    const { layout, timeline } = indexed(TOKENS);
    const file = layout.searchIndexFile("run-1");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('"login":[', '"login":{'));
    const loaded = loadIndex(layout, "run-1", timeline)!;
    expect(candidates(loaded, ["login"])).toBeNull();
    expect(loaded.damaged).toBe(true);
    expect(saveIndex(layout, loaded, timeline)).toBe(false);
    expect(fs.existsSync(file)).toBe(false);
    fs.writeFileSync(file, "{not json");
    expect(loadIndex(layout, "run-1", timeline)).toBeNull();
    timeline.close();
  });
});
