import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readBytesBounded, readFileBounded, readTextBounded, refusalCode } from "../../src/store/read-text-bounded.js";
import { readFileShared, sha256FileOrNull } from "../../src/store/file-hash.js";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { FAULT_CODE, FAULTS, plantFault } from "../helpers/faults.js";
import { tempDir, tempWorkspace, writeFile } from "../helpers/tmp.js";

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
    expect(readTextBounded(path.join(dir, "folder.md"), 10)).toEqual({ status: "not_a_file", found: "folder" });
    expect(readTextBounded(path.join(dir, "a.md", "child"), 10)).toEqual({ status: "missing" });
  });
});

describe("the one bounded reader refuses what is not a regular file inside the workspace, without blocking", () => {
  const root = tempWorkspace();
  new WorkspaceLayout(root); // registers the root: links out of it are refused
  const LIMIT = 1024;

  it.each(FAULTS)("%s: every reader returns a refusal with its code, at once", async (fault) => {
    const file = path.join(root, ".aop", "features", `${fault}.json`);
    await plantFault(fault, file, LIMIT + 1);
    const read = readBytesBounded(file, LIMIT);
    expect(read.status).not.toBe("ok");
    if (read.status !== "ok") expect(refusalCode(read)).toBe(FAULT_CODE[fault]);
    for (const reader of [() => readFileBounded(file, LIMIT), () => readFileShared(file, { maxBytes: LIMIT }), () => sha256FileOrNull(file, { maxBytes: LIMIT })]) {
      expect(reader).toThrow(expect.objectContaining({ code: FAULT_CODE[fault] }));
    }
    // Text a person wrote is read up to the bound (the start of an oversized file), never past it.
    const text = readTextBounded(file, LIMIT);
    if (fault === "oversized") expect(text).toMatchObject({ status: "ok", truncated: true });
    else expect(text.status).not.toBe("ok");
  });

  it("outside any workspace a link to /dev/zero is refused as a device", async () => {
    const file = path.join(tempDir(), "zero.json");
    await plantFault("dev-zero-link", file);
    expect(readBytesBounded(file, LIMIT)).toEqual({ status: "not_a_file", found: "character device" });
  });

  it("a link that stays inside the workspace is followed; a folder link out of it is refused", () => {
    const target = writeFile(root, "shared/real.json", "{}");
    const link = path.join(root, ".aop", "inside-link.json");
    fs.symlinkSync(target, link);
    expect(readFileBounded(link, LIMIT)?.toString()).toBe("{}");
    const outside = tempDir();
    writeFile(outside, "secret.json", "secret");
    fs.symlinkSync(outside, path.join(root, ".aop", "evidence-out"));
    expect(readBytesBounded(path.join(root, ".aop", "evidence-out", "secret.json"), LIMIT)).toMatchObject({ status: "outside_workspace", resolved: fs.realpathSync(outside) });
  });

  it("a file over the bound is refused unread; with truncate only its start is read", () => {
    const file = writeFile(root, "big.txt", "x".repeat(LIMIT + 10));
    expect(readBytesBounded(file, LIMIT)).toEqual({ status: "too_large", size: LIMIT + 10, limit: LIMIT });
    expect(readBytesBounded(file, LIMIT, { truncate: true })).toMatchObject({ status: "ok", truncated: true, size: LIMIT + 10 });
  });
});
