// Several `aop doctor` runs at once on a healthy workspace: each records its own call in the run the
// others are auditing, so every one of them reads a timeline being appended to — which is no corruption.
import { describe, expect, it } from "vitest";
import { runCli, runCliAsync } from "../../helpers/cli.js";
import { tempWorkspace } from "../../helpers/tmp.js";
import { bySuite } from "../../helpers/soak.js";

/** Rounds of 8 doctors at once: 3 in the soak run (test/helpers/soak.ts). */
const ROUNDS = bySuite(1, 3);

interface Report {
  findings: { id: string; message: string }[];
}

describe("aop doctor, several at once", () => {
  it(`8 concurrent doctors on a healthy workspace report no timeline corruption (${ROUNDS} round${ROUNDS === 1 ? "" : "s"})`, async () => {
    const root = tempWorkspace();
    expect(runCli(["init"], { cwd: root }).code).toBe(0);
    for (let i = 0; i < 5; i++) expect(runCli(["feature", "init", `feat_${i}`], { cwd: root }).code).toBe(0);
    for (let round = 0; round < ROUNDS; round++) {
      const runs = await Promise.all(Array.from({ length: 8 }, () => runCliAsync(["doctor", "--json"], { cwd: root })));
      for (const r of runs) {
        expect(r.code, r.stderr).toBe(0);
        const timeline = (JSON.parse(r.stdout) as Report).findings.filter((f) => f.id === "DRIFT_006_TIMELINE_CORRUPTION");
        expect(timeline, JSON.stringify(timeline)).toEqual([]);
      }
    }
    // Once they are done, the timeline is whole.
    const after = JSON.parse(runCli(["doctor", "--json"], { cwd: root }).stdout) as Report;
    expect(after.findings.filter((f) => f.id === "DRIFT_006_TIMELINE_CORRUPTION")).toEqual([]);
  }, 120_000);
});
