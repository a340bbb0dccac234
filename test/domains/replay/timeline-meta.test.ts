import { describe, expect, it } from "vitest";
import { emptyMeta, noteEntry, parseMeta, serializeMeta } from "../../../src/domains/replay/timeline-meta.js";

describe("the meta file's text", () => {
  it("reads back as the meta it was written from, with or without an index, the index on one line", () => {
    const meta = emptyMeta("run-m");
    expect(parseMeta(JSON.parse(serializeMeta(meta)), "run-m")).toEqual(meta);
    for (let i = 0; i < 1000; i++) noteEntry(meta, { sequence: i, ts: "2026-01-01T00:00:00.000Z", result: i % 7 ? "ok" : "error" }, i * 300);
    meta.file_size = 300_000;
    const text = serializeMeta(meta);
    expect(JSON.parse(text)).toEqual(meta);
    expect(parseMeta(JSON.parse(text), "run-m")).toEqual(meta);
    expect(text.split("\n").filter((l) => l.includes("index"))).toEqual([`  "index": ${JSON.stringify(meta.index)}`]);
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("reads an index of [sequence, offset] pairs (metas written before the flat list) as the flat list", () => {
    expect(parseMeta({ ...emptyMeta("r"), sequence_head: 600, entry_count: 601, file_size: 9000, index: [[0, 0], [256, 4000], [512, 8000]] }, "r")).toMatchObject({ index: [0, 0, 256, 4000, 512, 8000] });
  });

  it("an index that is neither is dropped, the rest kept", () => {
    for (const index of [[[0, 0], [256]], [[0, "0"]], "x", [[0, 0, 1]], [0, 0, 256], [0, "0"], [0, 1.5]]) {
      expect(parseMeta({ ...emptyMeta("r"), sequence_head: 3, entry_count: 4, file_size: 10, index }, "r")).toMatchObject({ index: [], entry_count: 4 });
    }
  });
});
