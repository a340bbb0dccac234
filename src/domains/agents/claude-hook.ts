// `aop hook claude`: acts on one Claude Code hook event. It never blocks the agent: every problem
// goes to .aop/runtime/hooks.log, stdout carries only the JSON output of events that expect one.
import fs from "node:fs";
import type { Clock } from "../../core/clock.js";
import { WorkspaceLayout } from "../../store/layout.js";
import { findWorkspaceRoot } from "../../store/workspace-root.js";
import { CONTEXT_EVENTS, TOOL_EVENTS, entryForToolEvent, parseHookEvent, runIdForSession, type ClaudeHookEvent } from "./claude-event.js";
import { logHook } from "./hook-log.js";
import { discardSpooled, spoolEntry } from "../replay/index.js";
import type { Policy } from "../../config/policy-types.js";
import type { DoctorCheck } from "../doctor/index.js";

export interface HookIo {
  stdin: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  /** `--root`, when given. */
  root?: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Every doctor check (the composition root's); the session context reports the critical findings. */
  doctorChecks(): Promise<readonly DoctorCheck[]>;
}

function workspaceFor(io: HookIo, event: ClaudeHookEvent | null): WorkspaceLayout {
  const candidates = [event?.cwd, io.env.CLAUDE_PROJECT_DIR, process.cwd()];
  const cwd = candidates.find((d): d is string => typeof d === "string" && d !== "" && fs.existsSync(d)) ?? process.cwd();
  return new WorkspaceLayout(findWorkspaceRoot({ root: io.root, env: io.env, cwd }));
}

async function recordToolCall(layout: WorkspaceLayout, event: ClaudeHookEvent, io: HookIo): Promise<void> {
  const runId = runIdForSession(event.session_id);
  if (!runId) {
    logHook(layout, "warning", event.hook_event_name, `session_id '${event.session_id.slice(0, 80)}' cannot name a run; call not recorded`);
    return;
  }
  // Spool first, before anything slow: if this process is stopped while loading the policy or waiting
  // for the run's lock (the hook has one second, and fifty may start at once), the entry survives and
  // the next writer of the run appends it.
  const spooled = spoolEntry(layout, entryForToolEvent(event, runId, io.clock.now()));
  const { loadPolicyTolerant } = await import("../../config/policy-loader.js");
  const { replayWritesEnabled } = await import("../../config/policy-types.js");
  const { policy } = await loadPolicyTolerant(layout);
  if (!replayWritesEnabled(policy)) {
    discardSpooled(layout, runId, spooled);
    return;
  }
  await flushRun(layout, runId, policy, io);
}

/** Append the run's spooled entries under its lock, applying run retention when the run is new. */
async function flushRun(layout: WorkspaceLayout, runId: string, policy: Policy, io: HookIo): Promise<void> {
  const { TimelineWriter } = await import("../replay/index.js");
  const retention = policy.observability.replay.retention;
  const writer = new TimelineWriter(layout, () => retention.max_entries_per_run);
  let flushed;
  try {
    flushed = await writer.flush(runId);
  } finally {
    writer.close();
  }
  if (flushed.createdRun) {
    const { pruneRuns } = await import("../replay/index.js");
    await pruneRuns(layout, retention.max_runs, runId, new Date(io.clock.now()).toISOString());
  }
}

async function printContext(layout: WorkspaceLayout, event: ClaudeHookEvent, io: HookIo): Promise<void> {
  const { gatherSessionContext } = await import("./gather-context.js");
  const { renderSessionContext } = await import("./session-context.js");
  const text = renderSessionContext(await gatherSessionContext(layout, io.clock, io.env, await io.doctorChecks()));
  io.stdout(JSON.stringify({ hookSpecificOutput: { hookEventName: event.hook_event_name, additionalContext: text } }) + "\n");
}

/** At the end of a turn, append whatever the session's tool hooks left in the spool. */
async function drainSession(layout: WorkspaceLayout, event: ClaudeHookEvent, io: HookIo): Promise<void> {
  const runId = runIdForSession(event.session_id);
  if (!runId) return;
  const { spoolBacklog } = await import("../replay/index.js");
  if (spoolBacklog(layout, runId) === 0) return;
  const { loadPolicyTolerant } = await import("../../config/policy-loader.js");
  await flushRun(layout, runId, (await loadPolicyTolerant(layout)).policy, io);
}

function remindIfStale(layout: WorkspaceLayout, event: ClaudeHookEvent, io: HookIo): void {
  if (typeof event.transcript_path !== "string" || event.transcript_path === "") return;
  const state = fs.statSync(layout.currentStateFile, { throwIfNoEntry: false });
  const transcript = fs.statSync(event.transcript_path, { throwIfNoEntry: false });
  if (!state || !transcript) return;
  if (state.mtimeMs < transcript.mtimeMs) {
    io.stderr("aop: memory/CURRENT_STATE.md is older than this session's transcript — update it before you stop (objective, current step, next action, blockers, unsurfaced results).\n");
  }
}

export async function runClaudeHook(io: HookIo): Promise<void> {
  const parsed = parseHookEvent(io.stdin);
  const event = "event" in parsed ? parsed.event : null;
  const layout = workspaceFor(io, event);
  try {
    if (!event) {
      logHook(layout, "warning", "unknown", `ignored: ${"problem" in parsed ? parsed.problem : ""}`);
      return;
    }
    const name = event.hook_event_name;
    if ((TOOL_EVENTS as readonly string[]).includes(name)) await recordToolCall(layout, event, io);
    else if ((CONTEXT_EVENTS as readonly string[]).includes(name)) await printContext(layout, event, io);
    else if (name === "Stop") {
      remindIfStale(layout, event, io);
      await drainSession(layout, event, io);
    }
    else logHook(layout, "info", name, "ignored: aop does not act on this event");
  } catch (err) {
    logHook(layout, "error", event?.hook_event_name ?? "unknown", err instanceof Error ? err.message : String(err));
  }
}
