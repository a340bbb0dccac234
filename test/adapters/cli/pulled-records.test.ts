// Reading pulled records through the CLI (docs/handoff.md, "Reading pulled records"): a workspace the real
// CLI produced, materialized into another's `.aop/remote/<remote>/<id>/` as `aop sync pull` lays it out.
// Readers list, replay and verify it, escape its text, skip a malformed origin.json, and never write there.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../../src/core/clock.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { ensureWorkspaceIdentity } from "../../../src/store/workspace-identity.js";
import { signedWorkspace, signedWorkspaceIn, type SignedWorkspace } from "../../helpers/attest.js";
import { runCli, runJson } from "../../helpers/cli.js";
import { INTEGRITY_POLICY_YAML } from "../../helpers/gates.js";
import { materializePull, snapshotTree } from "../../helpers/pulled.js";
import { copyWorkspace, tempWorkspace } from "../../helpers/tmp.js";

type MachineB = { root: string; cli: (args: string[]) => ReturnType<typeof runCli> };
const machineAt = (root: string): MachineB => ({ root, cli: (args) => runCli(["--root", root, ...args]) });

/** A second machine: its own workspace with one run of its own. */
function buildMachineB(): string {
  const { root, cli } = machineAt(tempWorkspace());
  expect(cli(["init"]).code).toBe(0);
  expect(cli(["--run-id", "run:b-own", "feature", "list"]).code).toBe(0);
  return root;
}

/** Machine A: a signed workspace with two anchored gate runs and a run of its own. */
function buildMachineA(): SignedWorkspace {
  const ws = signedWorkspace({ policy: { anchor_after_gate: true } });
  expect(ws.cli(["init"]).code).toBe(0); // the workspace id a push names the ref by
  for (let i = 0; i < 2; i++) expect(ws.cli(["--run-id", "run:a-gates", "gates", "run", "--feature-id", "feat_a", "--mode", "fast"]).code).toBe(0);
  expect(ws.cli(["--run-id", "run:a-look", "feature", "show", "feat_a"]).code).toBe(0);
  return ws;
}

// Each machine is made once through the CLI; every test gets its own copy of each (links kept as
// links), and its own HOME and configuration folder.
let templateA: SignedWorkspace;
let templateB: string;
beforeAll(() => {
  templateA = buildMachineA();
  templateB = buildMachineB();
}, 120_000);

async function machineA(): Promise<SignedWorkspace> {
  const ws = signedWorkspaceIn(copyWorkspace(templateA.root), templateA.key);
  // A copy at another path takes a workspace id of its own (docs/foundation.md, "Workspace id"): settled
  // now, as its first command would, before a pull names the copy by it.
  await ensureWorkspaceIdentity(new WorkspaceLayout(ws.root), systemClock);
  return ws;
}

function machineB(): MachineB {
  return machineAt(copyWorkspace(templateB));
}

describe("replay over pulled records", () => {
  it("lists local and pulled runs with their origin, filters by --origin, and replays a pulled run; the pulled folder is left byte-identical", async () => {
    const a = await machineA();
    const b = machineB();
    const pulled = materializePull(a.root, b.root, { displayName: "alice@laptop" });
    const before = snapshotTree(pulled.dir);

    const list = runJson<{ runs: { run: string; run_id: string; origin: string; entries: number }[] }>(["--root", b.root, "replay", "--list"]);
    expect(list.code, list.stderr).toBe(0);
    const byRun = new Map(list.json.runs.map((r) => [r.run, r]));
    expect(byRun.get("run:b-own")).toMatchObject({ origin: "local", run_id: "run:b-own" });
    expect(byRun.get("alice@laptop/run:a-gates")).toMatchObject({ origin: "alice@laptop", run_id: "run:a-gates", entries: 2 });
    expect(byRun.get("alice@laptop/run:a-look")).toMatchObject({ origin: "alice@laptop", entries: 1 });

    const table = b.cli(["replay", "--list"]).stdout;
    expect(table).toMatch(/^RUN\s+ORIGIN\s+ENTRIES/m);
    expect(table).toMatch(/^alice@laptop\/run:a-gates\s+alice@laptop\s+2\s/m);
    expect(table).toMatch(/^run:b-own\s+local\s+/m);

    const onlyA = runJson<{ runs: { origin: string }[] }>(["--root", b.root, "replay", "--list", "--origin", "alice@laptop"]).json.runs;
    expect(onlyA.length).toBeGreaterThan(0);
    expect(onlyA.every((r) => r.origin === "alice@laptop")).toBe(true);
    // The workspace-id prefix names the same origin; `local` names this workspace alone.
    expect(runJson<{ runs: unknown[] }>(["--root", b.root, "replay", "--list", "--origin", pulled.workspaceId.slice(0, 8)]).json.runs).toEqual(onlyA);
    const local = runJson<{ runs: { origin: string }[] }>(["--root", b.root, "replay", "--list", "--origin", "local"]).json.runs;
    expect(local.map((r) => r.origin)).toEqual(local.map(() => "local"));
    const unknown = b.cli(["replay", "--list", "--origin", "bob"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error origin_not_found: no pulled workspace is called 'bob'; pulled: alice@laptop/m);

    const page = runJson<{ run_id: string; entries: { sequence: number; tool_name: string; feature_id: string | null }[] }>(["--root", b.root, "replay", "--run-id", "alice@laptop/run:a-gates"]);
    expect(page.code, page.stderr).toBe(0);
    expect(page.json.entries.map((e) => [e.sequence, e.tool_name, e.feature_id])).toEqual([
      [0, "gates.run", "feat_a"],
      [1, "gates.run", "feat_a"],
    ]);
    const human = b.cli(["replay", "--run-id", "alice@laptop/run:a-gates", "--result", "ok"]);
    expect(human.stdout).toMatch(/^\s+1\s+\S+\s+ok\s.*gates\.run\s+feat_a/m);
    const missing = b.cli(["replay", "--run-id", "alice@laptop/run:nope"]);
    expect(missing.stderr).toMatch(/^error replay_run_not_found: origin alice@laptop has no run run:nope/m);

    expect(snapshotTree(pulled.dir)).toEqual(before);
  });

  it("skips a malformed origin.json (and other folders that are not pulls) with a warning, and reads the rest", async () => {
    const a = await machineA();
    const b = machineB();
    materializePull(a.root, b.root, { displayName: "alice@laptop" });
    const bad = materializePull(a.root, b.root, { displayName: "mallory", workspaceId: "f".repeat(32) });
    fs.writeFileSync(path.join(bad.dir, "origin.json"), '{"version":1,"remote":"origin","workspace_id":"../../etc"}');
    fs.mkdirSync(path.join(b.root, ".aop/remote/origin/not-an-id"));
    fs.symlinkSync(a.root, path.join(b.root, ".aop/remote/origin", "e".repeat(32)));
    const r = b.cli(["replay", "--list"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`warning: .aop/remote/origin/${"f".repeat(32)}: origin.json workspace_id must be 32 lowercase hex characters; skipped`);
    expect(r.stderr).toContain("warning: .aop/remote/origin/not-an-id: its name is not a workspace id");
    expect(r.stderr).toContain(`warning: .aop/remote/origin/${"e".repeat(32)}: not a folder (a symbolic link); skipped`);
    expect(r.stdout).toMatch(/^alice@laptop\/run:a-gates\s/m);
    expect(r.stdout).not.toContain("mallory");
    // This workspace's own records, pulled back, are not an origin.
    materializePull(b.root, b.root, { displayName: "me-again" });
    expect(b.cli(["replay", "--list"]).stdout).not.toContain("me-again");
  });

  it("a link inside a pulled folder that leads back into the local workspace is refused like any other way out", async () => {
    const a = await machineA();
    const b = machineB();
    const pulled = materializePull(a.root, b.root, { displayName: "alice@laptop" });
    const replayDir = path.join(pulled.dir, ".aop/runtime/replay");
    fs.chmodSync(replayDir, 0o755);
    // The pulled run's timeline is swapped for a link to this machine's own run: its entries must not be shown as alice's.
    const timeline = path.join(replayDir, "run:a-look.timeline.jsonl");
    fs.rmSync(timeline);
    fs.symlinkSync(path.join(b.root, ".aop/runtime/replay/run:b-own.timeline.jsonl"), timeline);
    const page = b.cli(["replay", "--run-id", "alice@laptop/run:a-look", "--json"]);
    expect(page.code).not.toBe(0);
    expect(page.stdout + page.stderr).toMatch(/path_outside_workspace/);
    expect(page.stdout).not.toMatch(/feature\.list/);
    const found = runJson<{ hits: { origin?: string; tool_name?: string | null }[] }>(["--root", b.root, "search", "feature.list", "--origin", "alice@laptop"]);
    expect(found.json.hits?.filter((h) => h.tool_name === "feature.list") ?? []).toEqual([]);
  });

  it("escapes hostile text from a pulled record (ANSI escapes, HTML) in the terminal", async () => {
    const a = await machineA();
    const b = machineB();
    const pulled = materializePull(a.root, b.root, { displayName: "eve <script>alert(1)</script>" });
    // A pulled timeline line whose tool name carries a terminal escape.
    const timeline = path.join(pulled.dir, ".aop/runtime/replay/run:a-look.timeline.jsonl");
    const line = JSON.parse(fs.readFileSync(timeline, "utf8").trim()) as Record<string, unknown>;
    fs.writeFileSync(timeline, JSON.stringify({ ...line, tool_name: "x\u001b]0;owned\u0007y", feature_id: "f\u001b[31m" }) + "\n");
    fs.rmSync(path.join(pulled.dir, ".aop/runtime/replay/run:a-look.meta.json"), { force: true });
    const label = "eve-script-alert-1-script";
    const list = b.cli(["replay", "--list"]);
    expect(list.stdout).toContain(`${label}/run:a-look`);
    const page = b.cli(["replay", "--run-id", `${label}/run:a-look`]);
    expect(page.code, page.stderr).toBe(0);
    expect(page.stdout).not.toContain("\u001b");
    expect(page.stdout).toContain("x\\x1b]0;owned\\x07y");
    const verify = b.cli(["evidence", "verify", "--origin", label, "--all"]);
    expect(verify.stdout).not.toContain("\u001b");
    expect(verify.stdout).toContain(`origin ${label} (eve <script>alert(1)</script>, pulled`);
    // A display name that carries a control character is not a well-formed origin: skipped, never printed.
    const raw = JSON.parse(fs.readFileSync(path.join(pulled.dir, "origin.json"), "utf8")) as Record<string, unknown>;
    fs.writeFileSync(path.join(pulled.dir, "origin.json"), JSON.stringify({ ...raw, display_name: "eve\u001b[2J" }));
    const skipped = b.cli(["replay", "--list"]);
    expect(skipped.stderr).toMatch(/origin\.json display_name must be 1-200 characters without control characters; skipped/);
    expect(skipped.stdout + skipped.stderr).not.toContain("\u001b");
  });
});

describe("report and export over pulled records", () => {
  it("report --origin writes the pulled workspace's page in this workspace, its hostile text inert; the local report lists the origins", async () => {
    const a = await machineA();
    const b = machineB();
    const pulled = materializePull(a.root, b.root, { displayName: "eve <script>alert(1)</script>" });
    const timeline = path.join(pulled.dir, ".aop/runtime/replay/run:a-look.timeline.jsonl");
    const line = JSON.parse(fs.readFileSync(timeline, "utf8").trim()) as Record<string, unknown>;
    fs.writeFileSync(timeline, JSON.stringify({ ...line, tool_name: "</script><img src=x onerror=alert(2)>" }) + "\n");
    fs.rmSync(path.join(pulled.dir, ".aop/runtime/replay/run:a-look.meta.json"), { force: true });
    const before = snapshotTree(pulled.dir);
    const out = path.join(b.root, "alice.html");
    const r = runJson<{ path: string; runs: number; notes: string[] }>(["--root", b.root, "report", "--origin", "eve-script-alert-1-script", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.runs).toBeGreaterThanOrEqual(2);
    expect(r.json.notes[0]).toMatch(/^the records of pulled workspace eve-script-alert-1-script \(eve <script>alert\(1\)<\/script>\), pulled /);
    const html = fs.readFileSync(out, "utf8");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<img src=x");
    expect(snapshotTree(pulled.dir)).toEqual(before);
    const local = runJson<{ notes: string[] }>(["--root", b.root, "report", "--out", path.join(b.root, "b.html")]);
    expect(local.json.notes.some((n) => n.startsWith("pulled workspaces (their reports: aop report --origin NAME): eve-script-alert-1-script ("))).toBe(true);
  });

  it("export otlp --origin exports a pulled run under its own workspace's trace ids; cursors stay local", async () => {
    const a = await machineA();
    const b = machineB();
    const pulled = materializePull(a.root, b.root, { displayName: "alice@laptop" });
    const before = snapshotTree(pulled.dir);
    const there = runJson<{ runs: { run_id: string; trace_id: string }[] }>(["--root", a.root, "export", "otlp", "--run-id", "run:a-look", "--out", path.join(a.root, "a.jsonl")]);
    const here = runJson<{ runs: { run_id: string; trace_id: string; spans: number }[] }>(["--root", b.root, "export", "otlp", "--origin", "alice@laptop", "--run-id", "run:a-look", "--out", path.join(b.root, "b.jsonl")]);
    expect(here.code, here.stderr).toBe(0);
    expect(here.json.runs[0]!.trace_id).toBe(there.json.runs[0]!.trace_id);
    expect(here.json.runs[0]!.spans).toBeGreaterThan(0);
    // A second export sends nothing new: the cursor is kept on this machine, outside the pulled folder.
    const again = runJson<{ runs: { spans: number }[] }>(["--root", b.root, "export", "otlp", "--origin", "alice@laptop", "--run-id", "run:a-look", "--out", path.join(b.root, "b.jsonl")]);
    expect(again.json.runs[0]!.spans).toBe(0);
    expect(fs.readdirSync(path.join(b.root, ".aop/runtime/export/pulled", pulled.workspaceId))).toHaveLength(1);
    expect(snapshotTree(pulled.dir)).toEqual(before);
  });
});

describe("evidence verify --origin", () => {
  it("verifies a pulled chain against the repository's keys; a tampered one is named by origin, feature and sequence; nothing is written", async () => {
    const a = await machineA();
    const b = machineB();
    a.key.commitTo(b.root); // the repository carries A's public key
    const pulled = materializePull(a.root, b.root, { displayName: "alice@laptop" });
    const before = snapshotTree(pulled.dir);
    const ok = runJson<{ valid: boolean; origin: string; features: { feature_id: string; valid: boolean; entry_count: number; anchors: { valid: boolean }[]; attestations: { verified: number } }[] }>(["--root", b.root, "evidence", "verify", "--origin", "alice@laptop", "--all"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json).toMatchObject({ valid: true, origin: "alice@laptop", features: [{ feature_id: "feat_a", valid: true, entry_count: 2, anchors: [{ valid: true }] }] });
    expect(snapshotTree(pulled.dir)).toEqual(before);

    // Tamper with the first gate file on the "remote": the pull brings the edited bytes.
    const evidenceDir = path.join(pulled.dir, ".aop/features/feat_a/evidence");
    const gate = fs.readdirSync(evidenceDir).filter((n) => /^gate-fast-\d+\.json$/.test(n)).sort()[0]!;
    fs.appendFileSync(path.join(evidenceDir, gate), " ");
    const bad = b.cli(["evidence", "verify", "--origin", "alice@laptop", "--all"]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^✗ alice@laptop\/feat_a {2}INVALID {2}2 entries {2}sequence 0 {2}evidence_chain_hash_mismatch/m);

    // The doctor's record checks over the pulled folder find it too, under this repository's policy.
    fs.writeFileSync(path.join(b.root, "agentic/orchestrator/policy.yaml"), INTEGRITY_POLICY_YAML);
    const tampered = snapshotTree(pulled.dir);
    const doctor = runJson<{ origin: string; findings: { id: string; message: string }[] }>(["--root", b.root, "doctor", "--origin", "alice@laptop"]);
    expect(doctor.code, doctor.stderr).toBe(0);
    expect(doctor.json.origin).toBe("alice@laptop");
    expect(doctor.json.findings.find((f) => f.id === "DRIFT_007_EVIDENCE_CHAIN_INVALID")?.message).toMatch(/^feature feat_a: chain invalid at sequence 0: evidence_chain_hash_mismatch/);
    // Checks that read this machine or configuration (the run lease, keys, leftovers) are not run there.
    expect(doctor.json.findings.map((f) => f.id).filter((id) => /^DRIFT_0(01|02|04|10|12)/.test(id))).toEqual([]);
    expect(snapshotTree(pulled.dir)).toEqual(tampered);
    expect(fs.existsSync(path.join(b.root, ".aop/runtime/doctor/last_report.json"))).toBe(false);
  });

  it("refuses a pulled anchor and attestations signed by a key the repository does not carry", async () => {
    const a = await machineA();
    const b = machineB(); // B carries no key of A's
    const pulled = materializePull(a.root, b.root, { displayName: "alice@laptop" });
    // A key that came with the pull is never trusted, even where a local one would sit.
    a.key.commitTo(pulled.dir);
    const r = runJson<{ valid: boolean; failure_code: string; anchors: { valid: boolean; failure_code: string }[] }>(["--root", b.root, "evidence", "verify", "--origin", "alice@laptop", "--feature-id", "feat_a"]);
    expect(r.code).toBe(1);
    expect(r.json.valid).toBe(false);
    expect(r.json.failure_code).toBe("evidence_signing_key_unknown");
    expect(r.json.anchors[0]).toMatchObject({ valid: false, failure_code: "evidence_signing_key_unknown" });
    // The same records verify once the repository carries the key.
    a.key.commitTo(b.root);
    expect(runJson(["--root", b.root, "evidence", "verify", "--origin", "alice@laptop", "--feature-id", "feat_a"]).code).toBe(0);

    // A chain that is a link out of the pulled folder is named and refused; the other chains are still verified.
    fs.mkdirSync(path.join(pulled.dir, ".aop/features/feat_b/evidence"), { recursive: true });
    fs.symlinkSync(path.join(a.root, ".aop/features/feat_a/evidence/chain.jsonl"), path.join(pulled.dir, ".aop/features/feat_b/evidence/chain.jsonl"));
    const all = runJson<{ valid: boolean; features: { feature_id: string; valid: boolean }[]; unverified: { feature_id: string; code: string }[] }>(["--root", b.root, "evidence", "verify", "--origin", "alice@laptop", "--all"]);
    expect(all.code).toBe(1);
    expect(all.json.features).toMatchObject([{ feature_id: "feat_a", valid: true }]);
    expect(all.json.unverified).toMatchObject([{ feature_id: "feat_b", code: "path_outside_workspace" }]);
  });
});
