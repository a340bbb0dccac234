import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { tempWorkspace, writeFile, readJson } from "../helpers/tmp.js";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { loadPolicyTolerant } from "../../src/config/policy-loader.js";
import { loadPolicySnapshot } from "../../src/config/policy-snapshot.js";

const POLICY = "version: 1\nobservability:\n  replay:\n    retention:\n      max_entries_per_run: 1000000\n";

function workspace(yaml: string | null, { aop = true } = {}): WorkspaceLayout {
  const root = tempWorkspace();
  if (yaml !== null) writeFile(root, "agentic/orchestrator/policy.yaml", yaml);
  if (aop) fs.mkdirSync(`${root}/.aop/runtime`, { recursive: true });
  return new WorkspaceLayout(root);
}

interface Snapshot {
  build: string;
  source: string;
  result: { policy: { observability: { replay: { retention: { max_entries_per_run: number } } } } };
}

describe("the policy snapshot", () => {
  it("gives loadPolicyTolerant's result, first from policy.yaml, then from the snapshot it kept", async () => {
    for (const yaml of [POLICY, "version: 1\nhooks:\n  claude:\n    stop_reminder: block\n", "version: 1\nlocks:\n  lease_ttl_seconds: -5\n", "[not, a, mapping]\n", "a: [unclosed\n"]) {
      const layout = workspace(yaml);
      const expected = await loadPolicyTolerant(layout);
      expect(await loadPolicySnapshot(layout), yaml).toEqual(expected);
      expect(await loadPolicySnapshot(layout), yaml).toEqual(expected);
    }
  });

  it("is read while policy.yaml holds the text it was made from (a forged result shows it is the snapshot that answers)", async () => {
    const layout = workspace(POLICY);
    await loadPolicySnapshot(layout);
    const kept = readJson<Snapshot>(layout.policySnapshotFile);
    expect(kept.source).toBe(POLICY);
    kept.result.policy.observability.replay.retention.max_entries_per_run = 7;
    fs.writeFileSync(layout.policySnapshotFile, JSON.stringify(kept));
    expect((await loadPolicySnapshot(layout)).policy.observability.replay.retention.max_entries_per_run).toBe(7);
  });

  it("sees an edit of policy.yaml at once, even one of the same size and time", async () => {
    const layout = workspace(POLICY);
    await loadPolicySnapshot(layout);
    const stat = fs.statSync(layout.policyFile);
    fs.writeFileSync(layout.policyFile, POLICY.replace("1000000", "2000000"));
    fs.utimesSync(layout.policyFile, stat.atime, stat.mtime);
    expect((await loadPolicySnapshot(layout)).policy.observability.replay.retention.max_entries_per_run).toBe(2_000_000);
    expect(readJson<Snapshot>(layout.policySnapshotFile).source).toContain("2000000");
  });

  it("ignores a snapshot of another build, and one that is not a snapshot", async () => {
    const layout = workspace(POLICY);
    await loadPolicySnapshot(layout);
    const kept = readJson<Snapshot>(layout.policySnapshotFile);
    kept.result.policy.observability.replay.retention.max_entries_per_run = 7;
    fs.writeFileSync(layout.policySnapshotFile, JSON.stringify({ ...kept, build: "another-build" }));
    expect((await loadPolicySnapshot(layout)).policy.observability.replay.retention.max_entries_per_run).toBe(1_000_000);
    for (const junk of ["{", "null", "[]", JSON.stringify({ build: kept.build, source: POLICY })]) {
      fs.writeFileSync(layout.policySnapshotFile, junk);
      expect((await loadPolicySnapshot(layout)).policy.observability.replay.retention.max_entries_per_run, junk).toBe(1_000_000);
    }
  });

  it("keeps nothing without a policy.yaml, or where aop keeps no state yet", async () => {
    const bare = workspace(null);
    expect(await loadPolicySnapshot(bare)).toEqual(await loadPolicyTolerant(bare));
    expect(fs.existsSync(bare.policySnapshotFile)).toBe(false);
    const fresh = workspace(POLICY, { aop: false });
    expect(await loadPolicySnapshot(fresh)).toEqual(await loadPolicyTolerant(fresh));
    expect(fs.existsSync(fresh.aopDir)).toBe(false);
  });
});
