import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { readJson, tempWorkspace, writeFile } from "../helpers/tmp.js";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { loadGatesTolerant } from "../../src/config/gates-loader.js";
import { loadGatesSnapshot } from "../../src/config/gates-snapshot.js";
import { GATES_TEMPLATE } from "../../src/config/templates.js";

const GATES = "version: 1\nprofiles:\n  p:\n    modes:\n      fast:\n        - name: tests\n          cmd: [npm, test]\n";

function workspace(yaml: string | null, { aop = true } = {}): WorkspaceLayout {
  const root = tempWorkspace();
  if (yaml !== null) writeFile(root, "agentic/orchestrator/gates.yaml", yaml);
  if (aop) fs.mkdirSync(`${root}/.aop/runtime`, { recursive: true });
  return new WorkspaceLayout(root);
}

interface Snapshot {
  build: string;
  source: string;
  result: { gates: { profiles: Record<string, unknown> } | null };
}

describe("the gates.yaml snapshot", () => {
  it("gives loadGatesTolerant's result, first from gates.yaml, then from the snapshot it kept", async () => {
    const cases = [GATES, GATES_TEMPLATE, `default_profile: p\n${GATES}`, GATES.replace("[npm, test]", "npm test"), "[not, a, mapping]\n", "a: [unclosed\n", "version: 1\nprofiles:\n  p:\n    modes:\n      m:\n        - name: a\n          cmd: [x]\n          depends_on: [ghost]\n"];
    for (const yaml of cases) {
      const layout = workspace(yaml);
      const expected = await loadGatesTolerant(layout);
      expect(await loadGatesSnapshot(layout), yaml).toEqual(expected);
      expect(fs.existsSync(layout.gatesSnapshotFile), yaml).toBe(true);
      expect(await loadGatesSnapshot(layout), yaml).toEqual(expected);
    }
  });

  it("carries gates.yaml's own default_profile, valid file or not (DRIFT_014 reports it)", async () => {
    expect((await loadGatesSnapshot(workspace(`default_profile: p\n${GATES}`))).ownDefaultProfile).toBe("p");
    expect((await loadGatesSnapshot(workspace(`default_profile: p\nextra: 1\n${GATES}`))).ownDefaultProfile).toBe("p");
    expect((await loadGatesSnapshot(workspace(GATES))).ownDefaultProfile).toBeNull();
  });

  it("is read while gates.yaml holds the text it was made from (a forged result shows it is the snapshot that answers)", async () => {
    const layout = workspace(GATES);
    await loadGatesSnapshot(layout);
    const kept = readJson<Snapshot>(layout.gatesSnapshotFile);
    expect(kept.source).toBe(GATES);
    kept.result.gates = { profiles: { forged: {} } };
    fs.writeFileSync(layout.gatesSnapshotFile, JSON.stringify(kept));
    expect(Object.keys((await loadGatesSnapshot(layout)).gates!.profiles)).toEqual(["forged"]);
  });

  it("sees an edit of gates.yaml at once, even one of the same size and time, and a removal", async () => {
    const layout = workspace(GATES);
    await loadGatesSnapshot(layout);
    const stat = fs.statSync(layout.gatesFile);
    fs.writeFileSync(layout.gatesFile, GATES.replace("  p:", "  q:"));
    fs.utimesSync(layout.gatesFile, stat.atime, stat.mtime);
    expect(Object.keys((await loadGatesSnapshot(layout)).gates!.profiles)).toEqual(["q"]);
    expect(readJson<Snapshot>(layout.gatesSnapshotFile).source).toContain("  q:");
    fs.rmSync(layout.gatesFile);
    expect(await loadGatesSnapshot(layout)).toEqual(await loadGatesTolerant(layout));
    expect((await loadGatesSnapshot(layout)).exists).toBe(false);
  });

  it("ignores a snapshot of another build, and one that is not a snapshot", async () => {
    const layout = workspace(GATES);
    await loadGatesSnapshot(layout);
    const kept = readJson<Snapshot>(layout.gatesSnapshotFile);
    kept.result.gates = { profiles: { forged: {} } };
    fs.writeFileSync(layout.gatesSnapshotFile, JSON.stringify({ ...kept, build: "another-build" }));
    expect(Object.keys((await loadGatesSnapshot(layout)).gates!.profiles)).toEqual(["p"]);
    for (const junk of ["{", "null", "[]", "7", JSON.stringify({ build: kept.build, source: GATES }), JSON.stringify({ ...kept, result: null })]) {
      fs.writeFileSync(layout.gatesSnapshotFile, junk);
      expect(Object.keys((await loadGatesSnapshot(layout)).gates!.profiles), junk).toEqual(["p"]);
    }
  });

  it("keeps nothing where aop keeps no state yet, and lets the loader refuse a file it cannot read", async () => {
    const fresh = workspace(GATES, { aop: false });
    expect(await loadGatesSnapshot(fresh)).toEqual(await loadGatesTolerant(fresh));
    expect(fs.existsSync(fresh.aopDir)).toBe(false);
    const folder = workspace(null);
    fs.mkdirSync(folder.gatesFile, { recursive: true });
    const refused = await loadGatesSnapshot(folder);
    expect(refused).toEqual(await loadGatesTolerant(folder));
    expect(refused.problems).toHaveLength(1);
    expect(fs.existsSync(folder.gatesSnapshotFile)).toBe(false);
  });
});
