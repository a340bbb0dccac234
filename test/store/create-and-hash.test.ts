import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/tmp.js";
import { createFileAtomic } from "../../src/store/atomic-write.js";
import { readFileOrNull, sha256FileOrNull } from "../../src/store/file-hash.js";
import { readLinesSync } from "../../src/store/jsonl.js";

describe("createFileAtomic", () => {
  it("creates a file with its whole contents and leaves no temp file", () => {
    const file = path.join(tempDir(), "sub", "gate-1.json");
    expect(createFileAtomic(file, "first")).toBe(true);
    expect(fs.readFileSync(file, "utf8")).toBe("first");
    expect(fs.readdirSync(path.dirname(file))).toEqual(["gate-1.json"]);
  });

  it("never replaces an existing file", () => {
    const file = path.join(tempDir(), "gate-1.json");
    fs.writeFileSync(file, "original");
    expect(createFileAtomic(file, "intruder")).toBe(false);
    expect(fs.readFileSync(file, "utf8")).toBe("original");
    expect(fs.readdirSync(path.dirname(file))).toEqual(["gate-1.json"]);
  });
});

describe("sha256FileOrNull", () => {
  it("hashes a file larger than its read buffer the same as hashing it whole", () => {
    const file = path.join(tempDir(), "big.log");
    const data = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    fs.writeFileSync(file, data);
    expect(sha256FileOrNull(file)).toBe(`sha256:${createHash("sha256").update(data).digest("hex")}`);
  });

  it("is null for a missing file, and so is readFileOrNull", () => {
    const missing = path.join(tempDir(), "nope");
    expect(sha256FileOrNull(missing)).toBeNull();
    expect(readFileOrNull(missing)).toBeNull();
  });
});

describe("readLinesSync", () => {
  it("yields raw lines with offsets, marks a torn final line, and stops at endOffset", () => {
    const file = path.join(tempDir(), "c.jsonl");
    fs.writeFileSync(file, "one\r\ntwo\n\nthree-torn");
    expect([...readLinesSync(file)]).toEqual([
      { text: "one", offset: 0, complete: true },
      { text: "two", offset: 5, complete: true },
      { text: "", offset: 9, complete: true },
      { text: "three-torn", offset: 10, complete: false },
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
