// Workspaces for the report's CLI and browser tests, built with the real CLI: a kernel run with
// replays, errors and a gate (evidence chained), a checkpoint, a doctor report, and an agent run whose
// lines carry subagent fields and hostile tool names; and one whose failed gate's evidence was edited.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseDocument } from "yaml";
import { serializeEntry } from "../../src/domains/replay/timeline-entry.js";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { runCli } from "./cli.js";
import { tempWorkspace } from "./tmp.js";

export const HOSTILE_TOOL = `<img src=x onerror="document.title='pwned';alert(1)"></script><script>alert(2)</script>`;
const HOSTILE_TITLE = "</script><!-- <b>bold</b>\u2028";

function cli(root: string, args: string[]): void {
  const r = runCli([...args, "--root", root]);
  if (r.code !== 0) throw new Error(`aop ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
}

/** The policy `aop init` writes has evidence integrity on (both toggles): this workspace relies on it. */
function expectIntegrityOn(root: string): void {
  const text = fs.readFileSync(path.join(root, "agentic/orchestrator/policy.yaml"), "utf8");
  if (!/tamper_evident_evidence: true/.test(text) || !/evidence_integrity:\n\s+enabled: true/.test(text)) {
    throw new Error("policy.yaml from aop init no longer turns evidence integrity on");
  }
}

/** A workspace with a kernel run `run:kernel` and an agent run `agent-run`. */
export function reportWorkspace(): { root: string; layout: WorkspaceLayout } {
  const root = tempWorkspace();
  cli(root, ["init"]);
  expectIntegrityOn(root);
  const k = ["--run-id", "run:kernel"];
  cli(root, ["feature", "init", "feat_login", "--title", HOSTILE_TITLE, ...k]);
  cli(root, ["call", "feature.set_status", "--args", '{"feature_id":"feat_login","status":"blocked"}', "--operation-id", "op-block-0001", ...k]);
  cli(root, ["call", "feature.set_status", "--args", '{"feature_id":"feat_login","status":"blocked"}', "--operation-id", "op-block-0001", ...k]);
  // The same operation id for another request: refused (a mismatch, recorded as an error).
  runCli(["call", "feature.set_status", "--args", '{"feature_id":"feat_login","status":"active"}', "--operation-id", "op-block-0001", "--root", root, ...k]);
  runCli(["feature", "show", "ghost", "--root", root, ...k]);
  cli(root, ["gates", "run", "--feature-id", "feat_login", "--mode", "fast", ...k]);
  cli(root, ["gates", "run", "--feature-id", "feat_login", "--mode", "fast", ...k]);
  cli(root, ["checkpoint", "init", ...k]);
  cli(root, ["checkpoint", "update", "architect", "--phase=design", "--step=api", "--progress_summary=Drafting", '--next_actions:json+={"text":"Write the error model"}', ...k]);
  cli(root, ["doctor", ...k]);
  const layout = new WorkspaceLayout(root);
  writeAgentRun(layout, "agent-run");
  return { root, layout };
}

export const TAMPER_RUN = "run:tampered";

/**
 * A workspace made by `aop init` with integrity on, where feature `feat_gate` ran a gate that failed
 * (mode `failing`, exit 3) and then one that passed (mode `fast`), the failed gate's evidence file was
 * edited afterwards ("overall": "fail" → "pass"), and `aop doctor` ran. Returns the edited file.
 */
export function tamperedGateWorkspace(): { root: string; layout: WorkspaceLayout; evidence: string } {
  const root = tempWorkspace();
  cli(root, ["init"]);
  expectIntegrityOn(root);
  const gatesFile = path.join(root, "agentic/orchestrator/gates.yaml");
  const gates = parseDocument(fs.readFileSync(gatesFile, "utf8"));
  gates.setIn(["profiles", "default", "modes", "failing"], gates.createNode([{ name: "exits-3", cmd: ["node", "-e", "process.exit(3)"] }]));
  fs.writeFileSync(gatesFile, gates.toString());
  const k = ["--run-id", TAMPER_RUN];
  cli(root, ["feature", "init", "feat_gate", "--title", "Gated", ...k]);
  const failed = runCli(["gates", "run", "--feature-id", "feat_gate", "--mode", "failing", "--root", root, ...k]);
  if (failed.code !== 1) throw new Error(`the failing gate exited ${failed.code}: ${failed.stderr}`);
  cli(root, ["gates", "run", "--feature-id", "feat_gate", "--mode", "fast", ...k]);
  const layout = new WorkspaceLayout(root);
  const dir = layout.evidenceDir("feat_gate");
  const evidence = path.join(dir, fs.readdirSync(dir).find((f) => f.startsWith("gate-failing-"))!);
  const original = fs.readFileSync(evidence, "utf8");
  if (!original.includes('"overall": "fail"')) throw new Error(`unexpected evidence file: ${original}`);
  fs.writeFileSync(evidence, original.replace('"overall": "fail"', '"overall": "pass"'));
  cli(root, ["doctor", ...k]);
  return { root, layout, evidence };
}

/** A Claude Code-like run: two sessions, a subagent, an error, a hostile tool name. */
export function writeAgentRun(layout: WorkspaceLayout, runId: string): void {
  const tools = ["Read", "Edit", HOSTILE_TOOL, "Bash", "Grep", "Read", "Task", "Read"];
  let text = "";
  tools.forEach((tool, i) => {
    const base = {
      ts: new Date(Date.UTC(2026, 2, 1, 9, 0, i)).toISOString(), run_id: runId, session_id: i < 6 ? "5f0c2a8e-1d3b-4c6a-9e7f-2b4d6f8a0c1e" : "second-session",
      actor_type: "agent", feature_id: null, tool_name: tool, mutating: tool === "Edit" || tool === "Bash", operation_id: `toolu_${i}`, idempotency_status: "none" as const,
      request_hash: "sha256:" + String(i).repeat(64).slice(0, 64), result: tool === "Bash" ? ("error" as const) : ("ok" as const), error_code: tool === "Bash" ? "tool_error" : null, latency_ms: 20 + i * 5,
    };
    const sub = i === 4 || i === 5 ? ',"agent_id":"agent-explore-1","agent_type":"Explore"' : "";
    text += serializeEntry(base, i).replace(/}\n$/, `${sub}}\n`);
  });
  fs.mkdirSync(layout.replayDir, { recursive: true });
  fs.writeFileSync(layout.timelineFile(runId), text);
}

/** Raw lines of a run's timeline (the test's own reading, to compare the page with). */
export function timelineLines(layout: WorkspaceLayout, runId: string): Record<string, unknown>[] {
  return fs.readFileSync(layout.timelineFile(runId), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Every file under `root` with its size and content hash, to prove a command wrote nothing. */
export function snapshot(root: string, except: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (except.includes(full)) continue;
      if (e.isDirectory()) walk(full);
      else out[path.relative(root, full)] = createHash("sha256").update(fs.readFileSync(full)).digest("hex");
    }
  };
  walk(root);
  return out;
}
