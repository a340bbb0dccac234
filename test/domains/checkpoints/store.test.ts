import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSkill, scanFolder } from "../../../src/domains/checkpoints/read-service.js";
import { fixedClock } from "../../../src/core/clock.js";
import type { AopError } from "../../../src/core/errors.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { tempDir, writeFile } from "../../helpers/tmp.js";
import { checkpointWorkspace, minimalCheckpoint } from "./fixture.js";

const clock = fixedClock("2026-03-01T12:00:00.000Z");
const env = (root: string, dir?: string) => ({ layout: new WorkspaceLayout(root, dir ? { checkpointsDir: dir } : {}), clock });

async function errorsOf(root: string, file: string) {
  const scan = await scanFolder(env(root));
  return scan.files.find((f) => f.file === file)!.errors;
}

describe("reading the checkpoints folder: bad input is a clear error, never a crash", () => {
  it("a 5 MB file is refused without being parsed", async () => {
    const root = checkpointWorkspace({ big: "{" + " ".repeat(5 * 1024 * 1024) + "}" });
    expect(await errorsOf(root, "big.checkpoint.json")).toEqual([{ path: "", message: "is 5242882 bytes, over the 1 MB limit: refused, not parsed (a checkpoint should stay under 32 KB)" }]);
  });

  it("binary garbage is an invalid-JSON error with its position", async () => {
    const root = checkpointWorkspace({ junk: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]) });
    const [error] = await errorsOf(root, "junk.checkpoint.json");
    expect(error!.message).toMatch(/^is not valid JSON \(line 1, column 1: expected a value, found a byte sequence that is not UTF-8 text \(binary data\?\)\)$/);
  });

  it("a symbolic link pointing outside the project is refused, not followed", async () => {
    const outside = tempDir();
    const secret = writeFile(outside, "secret.checkpoint.json", JSON.stringify(minimalCheckpoint("leak")));
    const root = checkpointWorkspace({ ok: minimalCheckpoint("ok") });
    fs.symlinkSync(secret, path.join(root, ".checkpoints", "leak.checkpoint.json"));
    const scan = await scanFolder(env(root));
    const leak = scan.files.find((f) => f.file === "leak.checkpoint.json")!;
    expect(leak.errors).toEqual([{ path: "", message: `is a symbolic link to ${fs.realpathSync(secret)}, outside the project: refused, not followed (replace it with a regular file)` }]);
    expect(leak.document).toBeUndefined();
    expect(scan.files.find((f) => f.file === "ok.checkpoint.json")!.errors).toEqual([]);
    // reading it by name is refused the same way
    expect((await readSkill(env(root), "leak")).errors[0]!.message).toMatch(/outside the project: refused, not followed/);
  });

  it("a symbolic link to a file inside the project is followed", async () => {
    const root = checkpointWorkspace();
    const target = writeFile(root, "shared/builder.json", JSON.stringify(minimalCheckpoint("builder")));
    fs.symlinkSync(target, path.join(root, ".checkpoints", "builder.checkpoint.json"));
    const scan = await scanFolder(env(root));
    expect(scan.files[0]).toMatchObject({ file: "builder.checkpoint.json", errors: [] });
  });

  it("a dangling symbolic link says where it points", async () => {
    const root = checkpointWorkspace();
    fs.symlinkSync("/nowhere/x.json", path.join(root, ".checkpoints", "gone.checkpoint.json"));
    expect((await errorsOf(root, "gone.checkpoint.json"))[0]!.message).toBe("is a symbolic link to /nowhere/x.json, which does not exist");
  });

  it("a folder named like a checkpoint is not a regular file", async () => {
    const root = checkpointWorkspace();
    fs.mkdirSync(path.join(root, ".checkpoints", "odd.checkpoint.json"));
    expect(await errorsOf(root, "odd.checkpoint.json")).toEqual([{ path: "", message: "is not a regular file" }]);
  });

  it("a skill name with / is refused before it touches a path", async () => {
    const root = checkpointWorkspace();
    for (const skill of ["../etc/passwd", "a/b", "..", ".hidden"]) {
      await expect(readSkill(env(root), skill)).rejects.toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/^skill /) });
    }
  });

  it("only *.checkpoint.json files count: history/, locks, temp files and other files are ignored", async () => {
    const root = checkpointWorkspace({ a: minimalCheckpoint("a") });
    writeFile(root, ".checkpoints/history/a.20260101T000000.000Z.checkpoint.json", "{}");
    writeFile(root, ".checkpoints/a.checkpoint.json.lock", "{}");
    writeFile(root, ".checkpoints/.a.checkpoint.json.tmp-1-abcd", "{");
    writeFile(root, ".checkpoints/README.md", "# notes");
    expect((await scanFolder(env(root))).files.map((f) => f.file)).toEqual(["a.checkpoint.json"]);
  });

  it("files are listed by name in UTF-16 code unit order (digits, capitals, underscore, lower case, accents)", async () => {
    const names = ["b", "é", "_x", "B", "10", "a", "Zed", "9"];
    const root = checkpointWorkspace(Object.fromEntries(names.map((n) => [n, minimalCheckpoint(n)])));
    expect((await scanFolder(env(root))).files.map((f) => f.skill)).toEqual(["10", "9", "B", "Zed", "_x", "a", "b", "é"]);
  });

  it("a missing folder is not an error; a file where the folder should be is", async () => {
    const root = tempDir();
    expect(await scanFolder(env(root))).toMatchObject({ exists: false, files: [] });
    writeFile(root, "not-a-dir", "x");
    await expect(scanFolder(env(root, "not-a-dir"))).rejects.toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/is not a folder/) });
  });

  it("reading an unknown skill is checkpoint_not_found with the known skills as a hint", async () => {
    const root = checkpointWorkspace({ a: minimalCheckpoint("a"), b: minimalCheckpoint("b") });
    const err = await readSkill(env(root), "c").catch((e: unknown) => e as AopError);
    expect(err).toMatchObject({ code: "checkpoint_not_found", hint: "known skills: a, b" });
  });
});
