import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { crashPoint } from "../../src/store/crash-points.js";
import { distUrl } from "../helpers/paths.js";
import { tempDir } from "../helpers/tmp.js";

/** Runs a built store function in a child with the crash environment set. */
function child(script: string, env: Record<string, string>) {
  const code = `const { writeFileAtomic, moveFile } = await import(${JSON.stringify(distUrl("store/atomic-write.js"))});\n${script}`;
  return spawnSync(process.execPath, ["--input-type=module", "-e", code], { env: { ...process.env, ...env }, encoding: "utf8" });
}

describe("crash points", () => {
  it("are empty calls when no crash test armed them", () => {
    expect(() => crashPoint("atomic:after-rename", "/x")).not.toThrow();
  });

  it("AOP_CRASH_AT=<point>@<n> kills the process the n-th time it passes the point, after the effect", () => {
    const dir = tempDir();
    const r = child(`for (const n of [1, 2, 3]) writeFileAtomic(${JSON.stringify(dir)} + "/f" + n, "x");`, { AOP_CRASH_AT: "atomic:after-rename@2" });
    expect(r.signal).toBe("SIGKILL");
    expect(fs.readdirSync(dir).filter((n) => !n.includes(".tmp-")).sort()).toEqual(["f1", "f2"]);
  });

  it("move:after-rename kills after the move (the checkpoint reset path)", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "a"), "x");
    const r = child(`moveFile(${JSON.stringify(dir)} + "/a", ${JSON.stringify(dir)} + "/b"); console.log("not reached");`, { AOP_CRASH_AT: "move:after-rename" });
    expect(r.signal).toBe("SIGKILL");
    expect(r.stdout).toBe("");
    expect(fs.readdirSync(dir)).toEqual(["b"]);
  });

  it("AOP_CRASH_TRACE lists every point passed, with its file", () => {
    const dir = tempDir();
    const trace = path.join(dir, "trace");
    const r = child(`writeFileAtomic(${JSON.stringify(dir)} + "/f", "x");`, { AOP_CRASH_TRACE: trace });
    expect(r.status).toBe(0);
    expect(fs.readFileSync(trace, "utf8")).toBe(`atomic:after-temp-write ${dir}/f\natomic:after-rename ${dir}/f\n`);
  });

  it("an unknown point is named on stderr, not silently ignored", () => {
    const r = child(`writeFileAtomic(${JSON.stringify(tempDir())} + "/f", "x");`, { AOP_CRASH_AT: "atomic:after-nothing" });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/AOP_CRASH_AT names no crash point \('atomic:after-nothing'\)/);
  });
});
