import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readTextBounded } from "../../src/store/read-text-bounded.js";
import { tempDir, writeFile } from "../helpers/tmp.js";

describe("readTextBounded", () => {
  const dir = tempDir("aop-read-");

  it("reads a small text file whole", () => {
    const file = writeFile(dir, "a.md", "héllo\n");
    expect(readTextBounded(file, 1024)).toMatchObject({ status: "ok", text: "héllo\n", size: 7, truncated: false, binary: false });
  });

  it("reads at most maxBytes of a big file and says so; a character cut in half is not garbage", () => {
    const file = writeFile(dir, "big.md", "é".repeat(1000)); // 2 bytes each
    const read = readTextBounded(file, 101);
    expect(read).toMatchObject({ status: "ok", size: 2000, truncated: true, binary: false });
    expect(read.status === "ok" && read.text.startsWith("é".repeat(50))).toBe(true);
  });

  it("recognises binary content: a NUL byte, or mostly undecodable bytes", () => {
    expect(readTextBounded(writeFile(dir, "nul.bin", Uint8Array.from([0x41, 0x00, 0x42])), 1024)).toMatchObject({ status: "ok", binary: true, text: "" });
    expect(readTextBounded(writeFile(dir, "ff.bin", Uint8Array.from(Array(64).fill(0xff))), 1024)).toMatchObject({ status: "ok", binary: true });
  });

  it("missing, a folder, and a path through a file are told apart from content", () => {
    expect(readTextBounded(path.join(dir, "nope.md"), 10)).toEqual({ status: "missing" });
    fs.mkdirSync(path.join(dir, "folder.md"));
    expect(readTextBounded(path.join(dir, "folder.md"), 10)).toEqual({ status: "not_a_file" });
    expect(readTextBounded(path.join(dir, "a.md", "child"), 10)).toEqual({ status: "missing" });
  });
});
