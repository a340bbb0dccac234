// `npm run build` builds into a fresh folder and swaps it in as dist/ by renaming (scripts/build-swap.mjs):
// a command started during a build runs the previous build, one started during the swap waits for it
// (bin/dist-bundle.cjs), and none fails with a missing dist/ (docs/startup.md).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { stagingFolder } from "../../../scripts/build-swap.mjs";
import { runCli, runCliAsync, type CliResult } from "../../helpers/cli.js";
import { packageCopy } from "../../helpers/package-copy.js";
import { REPO_ROOT } from "../../helpers/paths.js";
import { tempWorkspace } from "../../helpers/tmp.js";

describe("a build swaps dist/ in while commands run", () => {
  it("a staging folder is a sibling of dist/ and leaves the build in use alone", () => {
    const pkg = packageCopy(() => {});
    const before = fs.readdirSync(path.join(pkg, "dist")).sort();
    const next = stagingFolder(pkg);
    expect(path.dirname(next)).toBe(pkg);
    fs.writeFileSync(path.join(next, "half-written.js"), "");
    expect(fs.readdirSync(path.join(pkg, "dist")).sort()).toEqual(before);
    expect(runCli(["--help"], { bin: path.join(pkg, "bin", "aop.js") })).toMatchObject({ code: 0, stderr: "" });
  });

  it("a start that finds no dist/ (between the swap's two renames) waits for it", async () => {
    const pkg = packageCopy(() => {});
    const aside = path.join(pkg, ".dist-old-test");
    fs.renameSync(path.join(pkg, "dist"), aside);
    const run = runCliAsync(["--help"], { bin: path.join(pkg, "bin", "aop.js") });
    await new Promise((resolve) => setTimeout(resolve, 300));
    fs.renameSync(aside, path.join(pkg, "dist"));
    expect(await run).toMatchObject({ code: 0, stderr: "", stdout: expect.stringMatching(/^Usage: aop/) });
  });

  it("commands started while builds are swapped in one after another all run, without an error", async () => {
    const pkg = packageCopy(() => {});
    const bin = path.join(pkg, "bin", "aop.js");
    const ws = tempWorkspace();
    // Another process swaps complete copies of the build in, as fast as it can copy them, until told to stop.
    const swapper = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import fs from "node:fs"; import path from "node:path";
         const { stagingFolder, swapIn } = await import(${JSON.stringify(path.join(REPO_ROOT, "scripts", "build-swap.mjs"))});
         const pkg = ${JSON.stringify(pkg)}; const source = ${JSON.stringify(path.join(REPO_ROOT, "dist"))};
         let swaps = 0; let stop = false; process.stdin.on("data", () => (stop = true)); process.stdin.resume();
         while (!stop) { const next = stagingFolder(pkg); fs.cpSync(source, next, { recursive: true }); swapIn(next, path.join(pkg, "dist")); swaps++; process.stdout.write("s"); await new Promise((r) => setImmediate(r)); }`,
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    let swaps = "";
    swapper.stdout.on("data", (d: Buffer) => (swaps += d.toString()));
    const results: CliResult[] = [];
    // Rounds go on until several swaps happened while commands ran (a copy of dist/ can take longer
    // than a round of commands), bounded so a swapper that never swaps fails the test below.
    for (let round = 0; round < 8 || (swaps.length < 4 && round < 400); round++) {
      results.push(...(await Promise.all([runCliAsync(["--help"], { bin }), runCliAsync(["feature", "list", "--json"], { bin, cwd: ws }), runCliAsync(["checkpoint", "validate"], { bin, cwd: ws })])));
    }
    swapper.stdin.end("stop");
    await new Promise((resolve) => swapper.on("close", resolve));
    expect(swaps.length).toBeGreaterThanOrEqual(4);
    for (const r of results) expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(fs.readdirSync(pkg).filter((n) => n.startsWith(".dist-"))).toEqual([]);
  }, 120_000);
});
