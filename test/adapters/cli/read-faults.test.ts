// The read fault table (docs/hardening.md): for every kind of file the doctor, verify, evidence, the
// hooks, checkpoints, continuity and config read, each special file an attacker can plant — a FIFO, a
// link to /dev/zero, a socket, a folder, an oversized file — gives a clear outcome with its code. No
// read blocks: a blocked read would hang the CLI until the test's timeout, and the SessionStart hook
// would be cut off by its watchdog with no output, which the hook case asserts against.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../../src/core/hash.js";
import { FAULT_CODE, FAULTS, plantFault, type Fault } from "../../helpers/faults.js";
import { runCli } from "../../helpers/cli.js";
import { BASE_RUN as RUN, buildBaseWorkspace, type BaseWorkspace } from "../../helpers/base-workspace.js";
import { copyWorkspace } from "../../helpers/tmp.js";

const OP = "op-fault-00001";
let base: BaseWorkspace;

beforeAll(() => {
  base = buildBaseWorkspace({ lease: true });
}, 60_000);

/** A copy of the base workspace with `fault` planted at `rel`. */
async function faulty(rel: string, fault: Fault, oversize = 64 * 1024 * 1024): Promise<string> {
  const root = copyWorkspace(base.root, "aop-fault-");
  await plantFault(fault, path.join(root, rel), oversize);
  return root;
}

interface Probe {
  name: string;
  args: (root: string) => string[];
  exit: number;
  /** Exit codes that differ for a fault. */
  exitFor?: Partial<Record<Fault, number>>;
  /** What the outcome must say for this fault (default: the fault's code). */
  says?: Partial<Record<Fault, RegExp>>;
  input?: (root: string) => string;
}

interface Kind {
  kind: string;
  rel: () => string;
  probes: Probe[];
}

const doctor = (exit = 0, says?: Probe["says"]): Probe => ({ name: "doctor", args: (root) => ["--root", root, "doctor", "--json"], exit, ...(says ? { says } : {}) });
const verify: Probe = { name: "evidence verify", args: (root) => ["--root", root, "evidence", "verify", "--feature-id", "feat_a", "--json"], exit: 1 };
const sessionStart: Probe = {
  name: "SessionStart hook",
  args: () => ["hook", "claude"],
  input: (root) => JSON.stringify({ session_id: "s-1", transcript_path: path.join(root, "t.jsonl"), cwd: root, hook_event_name: "SessionStart", source: "startup" }),
  exit: 0,
  // The hook answered (its watchdog would have ended it silently): the context is printed whatever the file is.
  says: Object.fromEntries(FAULTS.map((f) => [f, /"hookEventName":"SessionStart"/])),
};
// A JSONL file is streamed, not refused by size: an oversized one is a line too long to read, skipped and counted.
const longLine = /incomplete|torn|unreadable line|not valid JSON/;

const KINDS: Kind[] = [
  { kind: "feature index", rel: () => ".aop/features/index.json", probes: [{ name: "feature list", args: (r) => ["--root", r, "feature", "list", "--json"], exit: 1 }, doctor(), sessionStart] },
  { kind: "feature state", rel: () => ".aop/features/feat_a/state.md", probes: [{ name: "feature show", args: (r) => ["--root", r, "feature", "show", "feat_a", "--json"], exit: 1 }] },
  { kind: "run lease", rel: () => ".aop/runtime/default/run-lease.json", probes: [{ name: "run status", args: (r) => ["--root", r, "run", "status", "--json"], exit: 1 }, doctor()] },
  {
    kind: "ledger record",
    rel: () => { const key = sha256Hex(OP); return `.aop/runtime/operation-ledger/${key.slice(0, 2)}/${key}.json`; },
    probes: [{ name: "feature set-status", args: (r) => ["--root", r, "feature", "set-status", "feat_a", "blocked", "--operation-id", OP, "--json"], exit: 1 }],
  },
  {
    kind: "timeline",
    rel: () => `.aop/runtime/replay/${RUN}.timeline.jsonl`,
    probes: [
      { name: "replay", args: (r) => ["--root", r, "replay", "--run-id", RUN, "--json"], exit: 1, exitFor: { oversized: 0 }, says: { oversized: /"entries": \[\]/ } },
      { ...doctor(0, { oversized: longLine }) },
    ],
  },
  { kind: "chain", rel: () => ".aop/features/feat_a/evidence/chain.jsonl", probes: [{ ...verify, says: { oversized: /evidence_chain_discontinuity/ } }, doctor(0, { oversized: longLine })] },
  { kind: "latest copy", rel: () => ".aop/features/feat_a/evidence/latest-fast.json", probes: [verify, { name: "evidence latest", args: (r) => ["--root", r, "evidence", "latest", "--feature-id", "feat_a", "--mode", "fast", "--json"], exit: 0 }, doctor()] },
  { kind: "gate evidence", rel: () => base.gateFile, probes: [verify, doctor()] },
  { kind: "step log", rel: () => base.stepLog, probes: [verify] },
  { kind: "manifest", rel: () => ".aop/features/feat_a/evidence/manifest.integrity.json", probes: [verify] },
  { kind: "policy.yaml", rel: () => "agentic/orchestrator/policy.yaml", probes: [{ name: "config check", args: (r) => ["--root", r, "config", "check"], exit: 1 }, doctor()] },
  { kind: "gates.yaml", rel: () => "agentic/orchestrator/gates.yaml", probes: [{ name: "config check", args: (r) => ["--root", r, "config", "check"], exit: 1 }, doctor()] },
  { kind: "tools.md", rel: () => "agentic/orchestrator/tools.md", probes: [doctor()] },
  {
    kind: "CURRENT_STATE.md",
    rel: () => "memory/CURRENT_STATE.md",
    probes: [
      // Read up to its bound like any text a person wrote: an oversized (sparse, all-NUL) file is "not text".
      { name: "continuity doctor", args: (r) => ["--root", r, "continuity", "doctor", "--json"], exit: 2, exitFor: { oversized: 1 }, says: { oversized: /not text \(binary data\)/ } },
      sessionStart,
    ],
  },
  { kind: "tasks.md", rel: () => "tasks.md", probes: [{ name: "continuity doctor", args: (r) => ["--root", r, "continuity", "doctor", "--json"], exit: 1, says: { oversized: /does not match any active task/ } }] },
  {
    kind: "checkpoint",
    rel: () => ".checkpoints/builder.checkpoint.json",
    probes: [
      // Checkpoint problems keep the protocol's own wording (the reference CLI's users know it).
      { name: "checkpoint validate", args: (r) => ["--root", r, "checkpoint", "validate", "--json"], exit: 1, says: { fifo: /is not a regular file/, socket: /is not a regular file/, directory: /is not a regular file/, "dev-zero-link": /outside the project: refused, not followed/, oversized: /over the 1 MB limit: refused, not parsed/ } },
      sessionStart,
    ],
  },
];

const CASES = KINDS.flatMap((k) => k.probes.flatMap((p) => FAULTS.map((fault) => ({ kind: k, probe: p, fault }))));

describe("read fault table: special files get a clear outcome with a code, never a hang or a flood", () => {
  it.each(CASES.map((c) => [`${c.kind.kind} × ${c.fault} → ${c.probe.name}`, c] as const))("%s", async (_name, { kind, probe, fault }) => {
    const root = await faulty(kind.rel(), fault, kind.kind === "step log" ? 1024 * 1024 * 1024 + 1 : undefined);
    const r = runCli(probe.args(root), { input: probe.input?.(root) ?? "", timeoutMs: 20_000 });
    expect(r.code, r.stdout + r.stderr).toBe(probe.exitFor?.[fault] ?? probe.exit);
    const says = probe.says?.[fault] ?? new RegExp(FAULT_CODE[fault]);
    expect(r.stdout + r.stderr).toMatch(says);
  });
});
