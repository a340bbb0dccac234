import fs from "node:fs";
import path from "node:path";
import { check } from "../../../../src/domains/doctor/checks/drift-010-leftover-files.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { tempDir } from "../../../helpers/tmp.js";
import { DRIFT_CASES } from "../drift-fixtures.js";

// A pid that runs no process: larger than any pid_max.
const DEAD_PID = 99_999_999;
const OK = "no leftovers of interrupted writes";

testCheck(check, {
  ...DRIFT_CASES,
  valid: [
    { name: "a clean workspace", workspace: (f) => f.index({ active: ["a"] }).state("a"), ok: OK },
    { name: "a temp file of this version's naming being written right now", workspace: (f) => f.write(`.aop/runtime/.x.json.tmp-${process.pid}-mhx2k1ab-0`, ""), ok: OK },
    { name: "a temp file being written right now by a live process", workspace: (f) => f.write(`.aop/runtime/.x.json.tmp-${process.pid}-0a1b2c3d`, ""), ok: OK },
    { name: "a spool folder that still holds entries is not a leftover", workspace: (f) => f.write(".aop/runtime/replay/run-1.spool/0001.json", "{}"), ok: OK },
    { name: "a name that only looks like a temp file", workspace: (f) => f.write(".aop/runtime/notes.tmp-1-zz", ""), ok: OK },
    {
      name: "does not follow a folder link out of the workspace",
      workspace: (f) => {
        const outside = tempDir("aop-outside-");
        fs.writeFileSync(path.join(outside, `.x.tmp-${DEAD_PID}-0a1b2c3d`), "");
        fs.mkdirSync(f.layout.aopDir, { recursive: true });
        fs.symlinkSync(outside, path.join(f.layout.aopDir, "elsewhere"));
        return f;
      },
      ok: OK,
    },
  ],
  invalid: [
    { name: "a temp file of a killed atomic write", workspace: (f) => f.write(`.aop/features/.index.json.tmp-${DEAD_PID}-0a1b2c3d`, "{"), findings: [{ message: /^1 temp file\(s\) of interrupted writes: \.aop\/features\/\.index\.json\.tmp-99999999-0a1b2c3d$/ }] },
    {
      name: "temp files in checkpoints and config folders",
      workspace: (f) => f.write(`.checkpoints/.a.checkpoint.json.tmp-${DEAD_PID}-00000000`, "").write(`agentic/orchestrator/.policy.yaml.tmp-${DEAD_PID}-ffffffff`, ""),
      findings: [{ message: /^2 temp file\(s\) of interrupted writes: \.checkpoints\/\.a\.checkpoint\.json\.tmp-99999999-00000000, agentic\/orchestrator\/\.policy\.yaml\.tmp-99999999-ffffffff$/ }],
    },
    { name: "a temp file named as this version names them (time and counter)", workspace: (f) => f.write(`.aop/features/.state.md.tmp-${DEAD_PID}-mhx2k1ab-3`, ""), findings: [{ message: /^1 temp file\(s\) of interrupted writes: \.aop\/features\/\.state\.md\.tmp-99999999-mhx2k1ab-3$/ }] },
    { name: "an empty spool folder", workspace: (f) => f.mkdir(".aop/runtime/replay/run-1.spool"), findings: [{ message: /^1 empty spool folder\(s\): \.aop\/runtime\/replay\/run-1\.spool$/ }] },
    { name: "an empty feature folder", workspace: (f) => f.mkdir(".aop/features/ghost"), findings: [{ message: /^1 empty feature folder\(s\) \(no state\.md\): \.aop\/features\/ghost$/ }] },
  ],
});
