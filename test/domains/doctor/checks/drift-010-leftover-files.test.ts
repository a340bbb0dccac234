import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { check } from "../../../../src/domains/doctor/checks/drift-010-leftover-files.js";
import { DriftFixture } from "../drift-fixtures.js";

// A pid that runs no process: larger than any pid_max.
const DEAD_PID = 99_999_999;

describe(check.id, () => {
  it.each([
    ["a clean workspace", (f: DriftFixture) => f.index({ active: ["a"] }).state("a"), []],
    ["a temp file of a killed atomic write", (f: DriftFixture) => f.write(`.aop/features/.index.json.tmp-${DEAD_PID}-0a1b2c3d`, "{"), [/^1 temp file\(s\) of interrupted writes: \.aop\/features\/\.index\.json\.tmp-99999999-0a1b2c3d$/]],
    ["temp files in checkpoints and config folders", (f: DriftFixture) => f.write(`.checkpoints/.a.checkpoint.json.tmp-${DEAD_PID}-00000000`, "").write(`agentic/orchestrator/.policy.yaml.tmp-${DEAD_PID}-ffffffff`, ""), [/^2 temp file\(s\) of interrupted writes: \.checkpoints\/\.a\.checkpoint\.json\.tmp-99999999-00000000, agentic\/orchestrator\/\.policy\.yaml\.tmp-99999999-ffffffff$/]],
    ["a temp file named as this version names them (time and counter)", (f: DriftFixture) => f.write(`.aop/features/.state.md.tmp-${DEAD_PID}-mhx2k1ab-3`, ""), [/^1 temp file\(s\) of interrupted writes: \.aop\/features\/\.state\.md\.tmp-99999999-mhx2k1ab-3$/]],
    ["a temp file of this version's naming being written right now", (f: DriftFixture) => f.write(`.aop/runtime/.x.json.tmp-${process.pid}-mhx2k1ab-0`, ""), []],
    ["a temp file being written right now by a live process", (f: DriftFixture) => f.write(`.aop/runtime/.x.json.tmp-${process.pid}-0a1b2c3d`, ""), []],
    ["an empty spool folder", (f: DriftFixture) => f.mkdir(".aop/runtime/replay/run-1.spool"), [/^1 empty spool folder\(s\): \.aop\/runtime\/replay\/run-1\.spool$/]],
    ["a spool folder that still holds entries is not a leftover", (f: DriftFixture) => f.write(".aop/runtime/replay/run-1.spool/0001.json", "{}"), []],
    ["an empty feature folder", (f: DriftFixture) => f.mkdir(".aop/features/ghost"), [/^1 empty feature folder\(s\) \(no state\.md\): \.aop\/features\/ghost$/]],
    ["a name that only looks like a temp file", (f: DriftFixture) => f.write(".aop/runtime/notes.tmp-1-zz", ""), []],
  ] as const)("%s", async (_name, build, expected) => {
    const findings = await build(new DriftFixture()).run(check);
    expect(findings.map((f) => f.message)).toEqual(expected.map((re) => expect.stringMatching(re)));
    for (const f of findings) expect(f.severity).toBe("info");
  });

  it("does not follow a folder link out of the workspace", async () => {
    const f = new DriftFixture();
    const outside = fs.mkdtempSync(path.join(path.dirname(f.layout.root), "aop-outside-"));
    fs.writeFileSync(path.join(outside, `.x.tmp-${DEAD_PID}-0a1b2c3d`), "");
    fs.mkdirSync(f.layout.aopDir, { recursive: true });
    fs.symlinkSync(outside, path.join(f.layout.aopDir, "elsewhere"));
    expect(await f.run(check)).toEqual([]);
    fs.rmSync(outside, { recursive: true, force: true });
  });
});
