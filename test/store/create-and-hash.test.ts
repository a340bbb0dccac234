import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/tmp.js";
import { createFileAtomic } from "../../src/store/atomic-write.js";
import { readFileOrNull, sha256FileOrNull } from "../../src/store/file-hash.js";

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
