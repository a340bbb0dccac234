// `aop sync push` from three machines at once against one bare remote: every push lands (a rejected one
// fetches and retries), no run is lost, each ref stays a straight line, and two pushes from one clone
// take turns on the push lock. Its own file: 65 pushes are most of the sync tests' time.
import { describe, expect, it } from "vitest";
import { TimelineWriter } from "../../../src/domains/replay/timeline-writer.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { bareRemote, cloneMachine, git } from "../../helpers/sync-machines.js";

interface PullJson {
  origins: { status: string }[];
}

async function appendEntries(root: string, runId: string, from: number, n: number): Promise<void> {
  const writer = new TimelineWriter(new WorkspaceLayout(root), () => 1_000_000);
  for (let i = from; i < from + n; i++) {
    await writer.append({ ts: new Date(Date.UTC(2026, 5, 1) + i * 1000).toISOString(), run_id: runId, session_id: runId, actor_type: "agent", feature_id: null, tool_name: "Read", mutating: false, operation_id: `op-${i}`, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 1 });
  }
  writer.close();
}

function treePaths(cwd: string, ref: string): string[] {
  return git(cwd, ["ls-tree", "-r", "--name-only", ref]).trim().split("\n").filter(Boolean);
}

describe("aop sync push from several machines at once", () => {
  it("three machines pushing 20 times each at once: every push lands, no run is lost, and two pushes from one clone take turns", async () => {
    const { dir, remote } = bareRemote();
    const machines = ["m1", "m2", "m3"].map((n) => cloneMachine(dir, remote, n));
    const codes: number[] = [];
    await Promise.all(
      machines.map(async (m, k) => {
        for (let i = 0; i < 20; i++) {
          await appendEntries(m.root, `m${k}-run-${i}`, 0, 1);
          // Now and then the third machine pushes twice at once: the lock makes them take turns.
          const pushes = k === 2 && i % 4 === 0 ? [m.aopAsync(["sync", "push"]), m.aopAsync(["sync", "push"])] : [m.aopAsync(["sync", "push"])];
          const results = await Promise.all(pushes);
          for (const r of results) {
            expect(r.code === 0 || /sync_nothing_to_push/.test(r.stderr), r.stderr).toBe(true);
            codes.push(r.code);
          }
          expect(results.some((r) => r.code === 0)).toBe(true);
        }
      }),
    );
    for (const [k, m] of machines.entries()) {
      const id = m.workspaceId();
      const runs = new Set(treePaths(remote, `refs/aop/records/${id}`).filter((p) => p.startsWith("timelines/")).map((p) => p.split("/")[1]));
      expect([...runs].filter((r) => r!.startsWith(`m${k}-run-`)).length).toBe(20);
      // One writer, fast-forward only: a straight line of commits.
      expect(git(remote, ["rev-list", "--merges", "--count", `refs/aop/records/${id}`]).trim()).toBe("0");
    }
    const pulled = machines[0]!.json<PullJson>(["sync", "pull"]);
    expect(pulled.json.origins.map((o) => o.status)).toEqual(["pulled", "pulled"]);
    expect(codes.filter((c) => c === 0).length).toBeGreaterThanOrEqual(60);
    expect(codes.length).toBe(65);
  }, 120_000);

});
