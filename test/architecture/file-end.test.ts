// The clean-up every test file gets when it ends (test/helpers/file-end.ts, test/setup/file-end.ts):
// test processes run many files with their modules already imported (vitest.config.ts).
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { atFileEnd, runFileEnd, setEnvForFile } from "../helpers/file-end.js";
import { tempDir } from "../helpers/tmp.js";

describe("what a test file leaves behind", () => {
  it("runs last registered first, each once, and goes on past a task that throws", () => {
    const ran: string[] = [];
    atFileEnd(() => ran.push("folder"));
    atFileEnd(() => {
      throw new Error("umount failed");
    });
    atFileEnd(() => ran.push("mount"));
    expect(() => runFileEnd()).toThrow(AggregateError);
    expect(ran).toEqual(["mount", "folder"]);
    runFileEnd();
    expect(ran).toEqual(["mount", "folder"]);
  });

  it("removes the file's temp folders and restores the variables it set", () => {
    const dir = tempDir();
    const before = process.env.AOP_SIGNING_KEY;
    setEnvForFile("AOP_SIGNING_KEY", "/tmp/key");
    setEnvForFile("AOP_FILE_END_PROBE", "set");
    expect(process.env.AOP_FILE_END_PROBE).toBe("set");
    runFileEnd();
    expect(fs.existsSync(dir)).toBe(false);
    expect(process.env.AOP_SIGNING_KEY).toBe(before);
    expect("AOP_FILE_END_PROBE" in process.env).toBe(false);
  });
});
