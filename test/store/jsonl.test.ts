import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/tmp.js";
import { appendJsonLine, readJsonl, readLinesSync, type JsonlReadStats } from "../../src/store/jsonl.js";

async function readAll(file: string, options = {}) {
  const stats: JsonlReadStats = { lines: 0, skipped: 0, tornTail: false, endOffset: 0 };
  const values: unknown[] = [];
  for await (const r of readJsonl(file, options, stats)) values.push(r.value);
  return { values, stats };
}

describe("JSONL", () => {
  it("appends whole lines and reads them back in order", async () => {
    const file = path.join(tempDir(), "a.jsonl");
    for (let i = 0; i < 5; i++) appendJsonLine(file, { i });
    const { values, stats } = await readAll(file);
    expect(values).toEqual([0, 1, 2, 3, 4].map((i) => ({ i })));
    expect(stats.skipped).toBe(0);
  });

  it("skips and counts unparseable lines in the middle and a torn final line", async () => {
    const file = path.join(tempDir(), "b.jsonl");
    fs.writeFileSync(file, '{"a":1}\nnot json\n{"a":2}\n{"a":3,"tor');
    const { values, stats } = await readAll(file);
    expect(values).toEqual([{ a: 1 }, { a: 2 }]);
    expect(stats).toMatchObject({ skipped: 2, tornTail: true, lines: 4 });
    expect(stats.endOffset).toBe(Buffer.byteLength('{"a":1}\nnot json\n{"a":2}\n'));
  });

  it("reads lines longer than the chunk size and seeks from an offset", async () => {
    const file = path.join(tempDir(), "c.jsonl");
    const long = "x".repeat(5000);
    appendJsonLine(file, { long });
    const offset = fs.statSync(file).size;
    appendJsonLine(file, { n: 2 });
    const all = await readAll(file, { chunkSize: 64 });
    expect(all.values).toEqual([{ long }, { n: 2 }]);
    const tail = await readAll(file, { fromOffset: offset, chunkSize: 64 });
    expect(tail.values).toEqual([{ n: 2 }]);
  });

  it("handles multi-byte UTF-8 split across chunks", async () => {
    const file = path.join(tempDir(), "d.jsonl");
    const value = { s: "€😀".repeat(100) };
    appendJsonLine(file, value);
    const { values } = await readAll(file, { chunkSize: 7 });
    expect(values).toEqual([value]);
  });

  it("refuses a value that would span lines", () => {
    expect(() => appendJsonLine(path.join(tempDir(), "e.jsonl"), "a\nb")).toThrow();
  });
});

describe("one line reader under both JSONL reads", () => {
  it("readJsonl is readLinesSync parsed: same offsets, CRLF and blank lines tolerated, a torn tail counted", async () => {
    const file = path.join(tempDir(), "f.jsonl");
    fs.writeFileSync(file, '{"a":1}\r\n\n{"a":2}\nbad\n{"a":3');
    const raw = [...readLinesSync(file, { chunkSize: 3 })];
    expect(raw).toEqual([
      { text: '{"a":1}', offset: 0, end: 9, complete: true },
      { text: "", offset: 9, end: 10, complete: true },
      { text: '{"a":2}', offset: 10, end: 18, complete: true },
      { text: "bad", offset: 18, end: 22, complete: true },
      { text: '{"a":3', offset: 22, end: 28, complete: false },
    ]);
    const stats: JsonlReadStats = { lines: 0, skipped: 0, tornTail: false, endOffset: 0 };
    const parsed = [];
    for await (const r of readJsonl(file, { chunkSize: 3 }, stats)) parsed.push(r);
    expect(parsed).toEqual([{ offset: 0, value: { a: 1 } }, { offset: 10, value: { a: 2 } }]);
    expect(stats).toEqual({ lines: 5, skipped: 2, tornTail: true, endOffset: 22 });
    expect([...readLinesSync(file, { fromOffset: 10, endOffset: 18 })]).toEqual([{ text: '{"a":2}', offset: 10, end: 18, complete: true }]);
  });
});

describe("readLinesSync", () => {
  it("yields raw lines with offsets, marks a torn final line, and stops at endOffset", () => {
    const file = path.join(tempDir(), "c.jsonl");
    fs.writeFileSync(file, "one\r\ntwo\n\nthree-torn");
    expect([...readLinesSync(file)]).toEqual([
      { text: "one", offset: 0, end: 5, complete: true },
      { text: "two", offset: 5, end: 9, complete: true },
      { text: "", offset: 9, end: 10, complete: true },
      { text: "three-torn", offset: 10, end: 20, complete: false },
    ]);
    expect([...readLinesSync(file, { endOffset: 9 })].map((l) => l.text)).toEqual(["one", "two"]);
  });

  it("handles lines longer than its chunk", () => {
    const file = path.join(tempDir(), "long.jsonl");
    const long = "x".repeat(5000);
    fs.writeFileSync(file, `${long}\nshort\n`);
    expect([...readLinesSync(file, { chunkSize: 1024 })].map((l) => l.text)).toEqual([long, "short"]);
  });
});
