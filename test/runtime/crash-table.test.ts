// Every mutating tool, killed at every crash point it passes (AOP_CRASH_AT), then retried with the same
// operation id through the built CLI: the retry applies the call once or says operation_interrupted, and the
// workspace is left whole (docs/kernel.md, "Crash safety"). The whole table (some 200 kills) is the soak
// run's; `npm test` kills each tool at one point and reaches every named point (test/helpers/soak.ts).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, tempWorkspace, writeFile } from "../helpers/tmp.js";
import { gatesYaml, INTEGRITY_POLICY_YAML, nodeStep } from "../helpers/gates.js";
import { blockingLocks, brokenFiles, runAop, timelines, tracePoints } from "../helpers/crash.js";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { intentPath, recordPath } from "../../src/store/ledger-files.js";
import { verifyFeatureChain } from "../../src/domains/evidence/evidence-verify.js";
import { systemClock } from "../../src/core/clock.js";
import { CRASH_POINTS } from "../../src/store/crash-points.js";
import { loadCatalog } from "../../src/catalog/catalog.js";
import { signingKeyFixture } from "../helpers/signing-key.js";
import { setEnvForFile } from "../helpers/file-end.js";
import { SOAK } from "../helpers/soak.js";

const T0 = "2026-03-01T10:00:00.000Z";
const T1 = "2026-03-01T10:05:00.000Z";
const T2 = "2026-03-01T10:10:00.000Z";
const OP = "op-crash-table-0001";

interface ToolCase {
  tool: string;
  args: Record<string, unknown>;
  /** Calls (tool, args) made on the template workspace before the crash. */
  setup: [string, Record<string, unknown>][];
  /** How many times the call's change is visible: 1 after a retry, whatever happened. */
  count(root: string): number;
  /** The files the call changes, for "the retry changed nothing more". */
  fingerprint(root: string): string;
  /** The tool finishes a killed call itself (the retry returns its result). */
  recovers?: boolean;
  /** Extra checks of a successful retry's data. */
  data?(data: Record<string, unknown>): void;
}

const read = (root: string, rel: string): string | null => (fs.existsSync(path.join(root, rel)) ? fs.readFileSync(path.join(root, rel), "utf8") : null);
const json = <T>(root: string, rel: string): T | null => {
  const text = read(root, rel);
  return text === null ? null : (JSON.parse(text) as T);
};
const version = (root: string): number => Number(/\nversion: (\d+)\n/.exec(read(root, ".aop/features/f1/state.md") ?? "")?.[1] ?? 0);
const lease = (root: string) => json<{ run_id: string; heartbeat_at: string; released_at: string | null; sessions: Record<string, Record<string, string>> }>(root, ".aop/runtime/default/run-lease.json");
const checkpoint = (root: string) => json<{ step: string; recently_done?: unknown[] }>(root, ".checkpoints/architect.checkpoint.json");
const listing = (root: string, rel: string, match: RegExp): string[] => (fs.existsSync(path.join(root, rel)) ? fs.readdirSync(path.join(root, rel)).filter((n) => match.test(n)).sort() : []);
const featureFiles = (root: string) => JSON.stringify([read(root, ".aop/features/f1/state.md"), read(root, ".aop/features/f_new/state.md"), read(root, ".aop/features/index.json")]);
const START: [string, Record<string, unknown>] = ["run.start", { run_id: "run:crash", owner: "orch", ttl_seconds: 3600 }];
const GATE: [string, Record<string, unknown>] = ["gates.run", { feature_id: "f1", mode: "fast" }];
const EVIDENCE = ".aop/features/f1/evidence";
const completeLines = (text: string | null): number => (text ?? "").split("\n").length - 1;
// The signing tools sign with this key (a temp file: the children inherit AOP_SIGNING_KEY); every template commits its public key.
const KEY = signingKeyFixture();
setEnvForFile("AOP_SIGNING_KEY", KEY.file);
const CHECKPOINT: [string, Record<string, unknown>] = ["checkpoint.update", { skill: "architect", patch: { progress_summary: "designing", next_actions: ["write the tests", "fix the bug"] } }];

const CASES: ToolCase[] = [
  { tool: "feature.init", args: { feature_id: "f_new", title: "New" }, setup: [], count: (r) => (read(r, ".aop/features/f_new/state.md") ? 1 : 0), fingerprint: featureFiles },
  { tool: "feature.set_status", args: { feature_id: "f1", status: "blocked" }, setup: [], count: (r) => version(r) - 1, fingerprint: featureFiles },
  {
    tool: "run.start",
    args: START[1],
    setup: [],
    count: (r) => (lease(r)?.run_id === "run:crash" ? 1 : 0),
    fingerprint: (r) => read(r, ".aop/runtime/default/run-lease.json") ?? "",
    data: (d) => expect(d.outcome).toBe("acquired"),
  },
  { tool: "run.heartbeat", args: { run_id: "run:crash" }, setup: [START], count: (r) => (lease(r)!.heartbeat_at === T0 ? 0 : 1), fingerprint: (r) => read(r, ".aop/runtime/default/run-lease.json") ?? "" },
  { tool: "run.stop", args: { run_id: "run:crash" }, setup: [START], count: (r) => (lease(r)!.released_at ? 1 : 0), fingerprint: (r) => read(r, ".aop/runtime/default/run-lease.json") ?? "" },
  {
    tool: "session.assign",
    args: { feature_id: "f1", role: "builder", session_id: "sess-1" },
    setup: [START],
    count: (r) => (lease(r)!.sessions.f1?.builder === "sess-1" ? 1 : 0),
    fingerprint: (r) => read(r, ".aop/runtime/default/run-lease.json") ?? "",
  },
  {
    tool: "gates.run",
    args: { feature_id: "f1", mode: "fast" },
    setup: [],
    recovers: true,
    count: (r) => listing(r, ".aop/features/f1/evidence", /^gate-fast-/).length,
    fingerprint: (r) => JSON.stringify(listing(r, ".aop/features/f1/evidence", /^gate-fast-/).map((n) => read(r, `.aop/features/f1/evidence/${n}`))),
    data: (d) => expect(d).toMatchObject({ overall: "pass", is_latest: true, chain: { sequence: 0 } }),
  },
  {
    tool: "evidence.attest",
    args: { feature_id: "f1", bundle: true },
    setup: [GATE],
    count: (r) => listing(r, EVIDENCE, /\.intoto\.jsonl$/).length,
    fingerprint: (r) => JSON.stringify(listing(r, EVIDENCE, /\.(intoto\.jsonl|sigstore\.json)$/).map((n) => read(r, `${EVIDENCE}/${n}`))),
    data: (d) => expect(d).toMatchObject({ created: true, chain_sequence: 0, keyid: KEY.keyid }),
  },
  {
    tool: "evidence.anchor",
    args: { feature_id: "f1" },
    setup: [GATE],
    count: (r) => completeLines(read(r, `${EVIDENCE}/anchors.jsonl`)),
    fingerprint: (r) => read(r, `${EVIDENCE}/anchors.jsonl`) ?? "",
    data: (d) => expect(d).toMatchObject({ created: true, tree_size: 1 }),
  },
  {
    tool: "evidence.reset_chain",
    args: { feature_id: "f1", reason: "crash table" },
    setup: [GATE],
    // The reset has begun once an archive holds a file; resets.jsonl says it finished.
    count: (r) => listing(r, EVIDENCE, /^reset-/).filter((d) => listing(r, `${EVIDENCE}/${d}`, /./).length > 0).length,
    fingerprint: (r) => JSON.stringify([listing(r, EVIDENCE, /./), ...listing(r, EVIDENCE, /^reset-/).map((d) => listing(r, `${EVIDENCE}/${d}`, /./)), read(r, `${EVIDENCE}/resets.jsonl`)]),
    data: (d) => expect(d).toMatchObject({ feature_id: "f1", previous: { valid: true, entry_count: 1 } }),
  },
  { tool: "doctor.run", args: {}, setup: [], count: (r) => listing(r, ".aop/runtime/doctor/history", /\.json$/).length, fingerprint: (r) => JSON.stringify(listing(r, ".aop/runtime/doctor/history", /\.json$/)) },
  {
    tool: "checkpoint.update",
    args: { skill: "architect", patch: { step: "build" } },
    setup: [CHECKPOINT],
    count: (r) => (checkpoint(r)!.step === "build" ? 1 : 0),
    fingerprint: (r) => read(r, ".checkpoints/architect.checkpoint.json") ?? "",
  },
  {
    tool: "checkpoint.done",
    args: { skill: "architect" },
    setup: [CHECKPOINT],
    count: (r) => checkpoint(r)!.recently_done?.length ?? 0,
    fingerprint: (r) => read(r, ".checkpoints/architect.checkpoint.json") ?? "",
  },
  {
    tool: "checkpoint.reset",
    args: { skill: "architect" },
    setup: [CHECKPOINT],
    count: (r) => listing(r, ".checkpoints/history", /^architect\..*\.checkpoint\.json$/).length,
    fingerprint: (r) => JSON.stringify([read(r, ".checkpoints/architect.checkpoint.json"), listing(r, ".checkpoints/history", /\.json$/)]),
  },
  {
    tool: "checkpoint.init",
    args: {},
    setup: [],
    count: (r) => (read(r, ".checkpoints/.gitignore") === null ? 0 : 1),
    fingerprint: (r) => read(r, ".checkpoints/.gitignore") ?? "",
  },
];

function call(root: string, tool: string, args: Record<string, unknown>, operationId: string, transport: "inprocess" | "mcp" = "inprocess"): string[] {
  return ["call", tool, "--args", JSON.stringify(args), "--operation-id", operationId, "--root", root, "--transport", transport, "--json"];
}

const templates = new Map<string, string>();
const points = new Map<string, string[]>();

async function template(c: ToolCase): Promise<string> {
  const root = tempWorkspace();
  writeFile(root, "agentic/orchestrator/policy.yaml", INTEGRITY_POLICY_YAML);
  KEY.commitTo(root);
  writeFile(root, "agentic/orchestrator/gates.yaml", gatesYaml({ fast: [nodeStep("lint", "", { parallel_group: "checks" }), nodeStep("types", "", { parallel_group: "checks" })] }));
  let n = 0;
  for (const [tool, args] of [["feature.init", { feature_id: "f1" }] as [string, Record<string, unknown>], ...c.setup]) {
    const r = await runAop(call(root, tool, args, `op-setup-${String(++n).padStart(4, "0")}`), { AOP_NOW: T0 });
    if (r.code !== 0) throw new Error(`setup ${tool} failed: ${r.stdout}${r.stderr}`);
  }
  // A command through the kernel keeps the policy's snapshot, and the doctor gates.yaml's (docs/performance.md);
  // made here, so that the writes a killed call is traced and killed at are the call's own, not a snapshot's.
  const warm = await runAop(["config", "check", "--root", root, "--json"], { AOP_NOW: T0 });
  const layout = new WorkspaceLayout(root);
  if (warm.code !== 0 || !fs.existsSync(layout.policySnapshotFile) || !fs.existsSync(layout.gatesSnapshotFile)) throw new Error(`no config snapshots in the template: ${warm.stdout}${warm.stderr}`);
  return root;
}

function copyOf(root: string): string {
  const copy = path.join(tempDir("aop-crash-"), "ws");
  fs.cpSync(root, copy, { recursive: true });
  return copy;
}

async function crashAndRetry(c: ToolCase, spec: string, transport: "inprocess" | "mcp"): Promise<void> {
  const root = copyOf(templates.get(c.tool)!);
  const layout = new WorkspaceLayout(root);
  const before = c.count(root);
  expect(before).toBe(0);
  const crashed = await runAop(call(root, c.tool, c.args, OP, transport), { AOP_NOW: T1, AOP_CRASH_AT: spec });
  if (transport === "inprocess") expect(crashed.signal, `${spec} was never reached: ${crashed.stdout}${crashed.stderr}`).toBe("SIGKILL");
  else expect(crashed.code, `the server should have died at ${spec}`).not.toBe(0);
  const landed = c.count(root);
  const midPrint = c.fingerprint(root);
  const recordedAtCrash = fs.existsSync(recordPath(layout, OP));
  expect([0, 1]).toContain(landed);

  const retry = await runAop(call(root, c.tool, c.args, OP, transport), { AOP_NOW: T2 });
  const envelope = JSON.parse(retry.stdout) as { ok: boolean; data?: Record<string, unknown>; error?: { code: string; details: Record<string, unknown> } };
  if (!envelope.ok) expect(envelope.error!.code, retry.stdout).toBe("operation_interrupted");
  expect(c.count(root), "the change is applied exactly once").toBe(1);
  if (landed === 0) expect(envelope.ok, `nothing had landed, so the retry runs it: ${retry.stdout}`).toBe(true);
  if (landed === 1 && !c.recovers) {
    expect(c.fingerprint(root), "the retry changed nothing the killed call had done").toBe(midPrint);
    if (!recordedAtCrash) expect(envelope.error?.code).toBe("operation_interrupted");
  }
  if (c.recovers) expect(envelope.ok, retry.stdout).toBe(true);
  if (envelope.ok) c.data?.(envelope.data!);

  const again = await runAop(call(root, c.tool, c.args, OP, transport), { AOP_NOW: T2 });
  expect(again.stdout, "a second retry replays the settled outcome").toBe(retry.stdout);
  expect(fs.existsSync(intentPath(layout, OP)), "the operation is settled").toBe(false);

  expect(brokenFiles(path.join(root, ".aop"))).toEqual([]);
  expect(brokenFiles(path.join(root, ".checkpoints"))).toEqual([]);
  expect(await blockingLocks(root)).toEqual([]);
  if (fs.existsSync(layout.chainFile("f1"))) {
    const report = await verifyFeatureChain(layout, systemClock, "f1", { recordResult: false });
    expect(report, JSON.stringify(report)).toMatchObject({ valid: true });
  }
  const entries = [...timelines(root).values()].flat().filter((e) => e.operation_id === OP);
  if (!recordedAtCrash) expect(entries.some((e) => e.error_code === "operation_interrupted" && e.latency_ms === 0), "the killed call has its entry").toBe(true);
  expect(entries.filter((e) => e.idempotency_status === "new" && e.result === "ok").length, "one entry applies it, at most").toBeLessThanOrEqual(1);
  expect(entries.filter((e) => e.idempotency_status === "replay").length).toBeGreaterThanOrEqual(1);
}

// The points each call passes are traced before the tests are declared, so each (point, occurrence) is a test.
const traceDir = tempDir("aop-trace-");
await Promise.all(
  CASES.map(async (c) => {
    const root = await template(c);
    templates.set(c.tool, root);
    points.set(c.tool, await tracePoints(call(copyOf(root), c.tool, c.args, OP), { AOP_NOW: T1 }, path.join(traceDir, `${c.tool}.trace`)));
  }),
);

/**
 * The kills `npm test` makes: each tool at the first point it passes that no earlier tool was killed at
 * (else its last point), then, for a named point still missing, the first tool that passes it.
 */
function sampled(): Map<string, string[]> {
  const pointOf = (spec: string) => spec.split("@")[0]!;
  const picked = new Map<string, string[]>(CASES.map((c) => [c.tool, []]));
  const covered = new Set<string>();
  for (const c of CASES) {
    const specs = points.get(c.tool)!;
    const spec = specs.find((s) => !covered.has(pointOf(s))) ?? specs[specs.length - 1]!;
    picked.get(c.tool)!.push(spec);
    covered.add(pointOf(spec));
  }
  for (const point of CRASH_POINTS.filter((p) => !covered.has(p))) {
    const c = CASES.find((k) => points.get(k.tool)!.some((s) => pointOf(s) === point));
    if (!c) continue; // reached by no tool: "the table reaches every named crash point" fails
    picked.get(c.tool)!.push(points.get(c.tool)!.find((s) => pointOf(s) === point)!);
    covered.add(point);
  }
  return picked;
}
const KILLS = SOAK ? points : sampled();

describe("crash points", () => {
  it("the table reaches every named crash point", () => {
    const reached = new Set([...points.values()].flat().map((s) => s.split("@")[0]));
    expect([...reached].sort()).toEqual([...CRASH_POINTS].sort());
  });

  it("every mutating tool of the catalog is in the table", () => {
    expect(CASES.map((c) => c.tool).sort()).toEqual(loadCatalog().tools.filter((t) => t.mutating).map((t) => t.name).sort());
  });

  it("the kills made cover every tool and every named crash point", () => {
    expect([...KILLS.keys()].sort()).toEqual(CASES.map((c) => c.tool).sort());
    for (const specs of KILLS.values()) expect(specs.length).toBeGreaterThan(0);
    expect([...new Set([...KILLS.values()].flat().map((s) => s.split("@")[0]))].sort()).toEqual([...CRASH_POINTS].sort());
  });
});

for (const c of CASES) {
  describe.concurrent(`${c.tool} killed at ${SOAK ? "each crash point it passes" : "the crash points sampled for it"}, then retried`, () => {
    it.each(KILLS.get(c.tool)!)("%s", async (spec) => crashAndRetry(c, spec, "inprocess"));
  });
}

describe.concurrent("over --transport mcp (the server is killed)", () => {
  const specs = ["ledger:after-intent@1", "atomic:after-rename@1", "ledger:before-record@1"];
  ["feature.set_status", "gates.run", "checkpoint.done"].forEach((tool, i) => {
    // `npm test`: each tool at one of the points, each point for one tool; the soak run: every pair.
    for (const spec of SOAK ? specs : [specs[i]!]) {
      it(`${tool} at ${spec}`, async () => crashAndRetry(CASES.find((c) => c.tool === tool)!, spec, "mcp"));
    }
  });
});
