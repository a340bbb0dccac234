// `aop hook claude`: acts on one Claude Code hook event (docs/agents.md has the table). It never
// blocks the agent: every problem goes to .aop/runtime/hooks.log, stdout carries only what the event
// accepts, and outside a workspace it records and creates nothing.
import fs from "node:fs";
import path from "node:path";
import type { Clock } from "../../core/clock.js";
import { isoUtc } from "../../core/clock.js";
import { WorkspaceLayout } from "../../store/layout.js";
import { findMarkedRoot } from "../../store/workspace-root.js";
import { AOP_MCP_PREFIX, MARKER_EVENTS, TOOL_EVENTS, adoptedEntry, entryForToolEvent, eventFromScan, markerEntry, overBoundNote, parseHookEvent, runIdForSession, type ClaudeHookEvent, type OverBound } from "./claude-event.js";
import type { ScannedEvent } from "./event-scan.js";
import { logHook } from "./hook-log.js";
// Named, not import()ed: the hook's bundle then holds only these of the replay domain (docs/startup.md).
import { adoptHandoff, removeSpoolDirIfEmpty, retainedAppender, spoolBacklog, spoolEntry, sweepHandoffs, type EntryWithoutSequence } from "../replay/index.js";
import type { Policy } from "../../config/policy-types.js";
import type { DoctorFamily } from "../doctor/index.js";

export interface HookIo {
  stdin: string;
  /** An event over MAX_EVENT_BYTES, read as it streamed (then `stdin` is empty). */
  oversized?: ScannedEvent;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  /** `--root`, when given. */
  root?: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** The doctor's families (the composition root's); the session context reports their critical findings. */
  doctorFamilies(): Promise<readonly DoctorFamily[]>;
}

/**
 * `--root` or AOP_ROOT when given; else the nearest marked folder at or above CLAUDE_PROJECT_DIR, else
 * above the event's cwd (else the process's, which Claude Code sets to the project); never `/`. Null
 * outside any workspace: then nothing is recorded and nothing created.
 */
export function hookWorkspace(io: Pick<HookIo, "root" | "env">, event: { cwd?: string } | null): WorkspaceLayout | null {
  const explicit = io.root || io.env.AOP_ROOT;
  if (explicit) return new WorkspaceLayout(path.resolve(explicit));
  // Each client names its project in its own variable (Codex sets none: the event's cwd tells).
  for (const dir of [io.env.CLAUDE_PROJECT_DIR, io.env.GEMINI_PROJECT_DIR, io.env.CURSOR_PROJECT_DIR, event?.cwd, process.cwd()]) {
    if (typeof dir !== "string" || !path.isAbsolute(dir)) continue;
    const root = findMarkedRoot(dir);
    // The filesystem root is nobody's project, whatever a stray marker there says.
    if (root && root !== path.parse(root).root) return new WorkspaceLayout(root);
  }
  return null;
}

export async function loadPolicy(layout: WorkspaceLayout): Promise<Policy> {
  const { loadPolicySnapshot } = await import("../../config/policy-snapshot.js");
  return (await loadPolicySnapshot(layout)).policy;
}

// Set once this process's entry is written or in the spool (or handed on): the watchdog's rescue then does nothing.
let spooledHere = false;

/**
 * Writes the entry straight into the timeline when no other process holds the run's lock (the usual
 * case); else spools it first and appends the spool under the lock, so that the entry survives if this
 * process is stopped while it waits (the hook has a second, and fifty may start at once).
 */
export async function record(layout: WorkspaceLayout, entry: EntryWithoutSequence, io: HookIo, policy?: Policy): Promise<void> {
  const loaded = policy ?? (await loadPolicy(layout));
  const { replayWritesEnabled } = await import("../../config/policy-types.js");
  if (!replayWritesEnabled(loaded)) return;
  const appender = retainedAppender(layout, loaded, io.clock, (m) => logHook(layout, "warning", "timeline", m));
  try {
    let direct;
    try {
      direct = await appender.writer.appendIfUnlocked(entry);
    } catch (err) {
      spoolEntry(layout, entry); // a later writer appends it, if this one could not
      throw err;
    } finally {
      spooledHere = true;
    }
    if (direct) return await appender.retain(entry.run_id, direct.createdRun);
    spoolEntry(layout, entry);
    await appender.retain(entry.run_id, (await appender.writer.flush(entry.run_id)).createdRun);
  } finally {
    appender.writer.close();
  }
}

async function flushRun(layout: WorkspaceLayout, runId: string, policy: Policy, io: HookIo): Promise<void> {
  const appender = retainedAppender(layout, policy, io.clock, (m) => logHook(layout, "warning", "timeline", m));
  try {
    await appender.retain(runId, (await appender.writer.flush(runId)).createdRun);
  } finally {
    appender.writer.close();
  }
}

/** The catalog tool behind `mcp__aop__<name>`, for a call whose server entry could not be adopted. */
async function aopTool(toolName: string | undefined): Promise<{ name: string; mutating: boolean } | undefined> {
  if (typeof toolName !== "string" || !toolName.startsWith(AOP_MCP_PREFIX)) return undefined;
  const { loadCatalog, mcpToolName } = await import("../../catalog/catalog.js");
  const wire = toolName.slice(AOP_MCP_PREFIX.length);
  const entry = loadCatalog().tools.find((t) => mcpToolName(t.name) === wire);
  return entry ? { name: entry.name, mutating: entry.mutating } : undefined;
}

/** PreToolUse: the call is announced; noted until it finishes, recorded as refused if it never does. */
async function notePreToolUse(layout: WorkspaceLayout, event: ClaudeHookEvent, runId: string, io: HookIo): Promise<void> {
  if (typeof event.tool_use_id !== "string") return;
  const { notePending } = await import("./pending-calls.js");
  notePending(layout, runId, event.tool_use_id, entryForToolEvent({ ...event, hook_event_name: "PermissionDenied" }, runId, io.clock.now(), await aopTool(event.tool_name)));
}

/** The calls announced and never finished (refused) in this scope, recorded before the stop's marker. */
async function recordUnfinished(layout: WorkspaceLayout, runId: string, scope: { agentId?: string; all?: boolean }, io: HookIo, policy: Policy): Promise<void> {
  const { takeUnfinished } = await import("./pending-calls.js");
  for (const entry of takeUnfinished(layout, runId, scope)) await record(layout, entry, io, policy);
}

async function recordToolCall(layout: WorkspaceLayout, event: ClaudeHookEvent, runId: string, io: HookIo, overBound?: OverBound): Promise<void> {
  const { clearPending } = await import("./pending-calls.js");
  clearPending(layout, runId, event.tool_use_id);
  // aop's own MCP calls: `aop mcp` left the kernel's entry under the tool_use_id; file that one entry here.
  const adopted = event.tool_name?.startsWith("mcp__") && typeof event.tool_use_id === "string" ? adoptHandoff(layout, event.tool_use_id) : null;
  if (adopted) {
    spoolEntry(layout, adoptedEntry(adopted.entry, event, runId));
    spooledHere = true;
    adopted.done();
    const policy = await loadPolicy(layout);
    const { replayWritesEnabled } = await import("../../config/policy-types.js");
    if (replayWritesEnabled(policy)) await flushRun(layout, runId, policy, io);
    return;
  }
  await record(layout, entryForToolEvent(event, runId, io.clock.now(), await aopTool(event.tool_name), overBound), io);
}

async function printSessionStart(layout: WorkspaceLayout, io: HookIo): Promise<void> {
  const { buildOrientation } = await import("./orientation.js");
  const { contextOutput } = await import("./hook-output.js");
  const { text } = await buildOrientation(layout, io.clock, io.env, await io.doctorFamilies());
  io.stdout(contextOutput("SessionStart", text));
}

/** PreCompact accepts plain text only (compaction instructions); the context returns at SessionStart. */
async function printCompaction(layout: WorkspaceLayout, io: HookIo): Promise<void> {
  const { buildOrientation } = await import("./orientation.js");
  const { compactionInstructions } = await import("./client-prompts.js");
  const { plainOutput } = await import("./hook-output.js");
  const text = compactionInstructions((await buildOrientation(layout, io.clock, io.env, [])).sources);
  if (text !== "") io.stdout(plainOutput(text));
}

async function onMarkerEvent(layout: WorkspaceLayout, event: ClaudeHookEvent, runId: string, io: HookIo, overBound?: OverBound): Promise<void> {
  const name = event.hook_event_name;
  // Output first: Claude Code reads stdout when the process ends, and recording can wait on a lock.
  if (name === "SessionStart") await printSessionStart(layout, io);
  else if (name === "PreCompact") await printCompaction(layout, io);
  const policy = await loadPolicy(layout);
  if (name === "Stop") {
    const { stopOutput } = await import("./stop-reminder.js");
    const out = stopOutput(layout, event, policy.hooks.claude.stop_reminder, runId, isoUtc(io.clock.now()));
    if (out !== "") io.stdout(out);
  }
  // `claude mcp list` and other commands end a "session" that never started: nothing to close there.
  if (name === "SessionEnd" && !(await sessionExists(layout, runId))) return closeSession(layout, runId, policy, io);
  if (name === "Stop" || name === "SubagentStop" || name === "SessionEnd") {
    const agentId = typeof event.agent_id === "string" ? event.agent_id : undefined;
    await recordUnfinished(layout, runId, name === "SessionEnd" ? { all: true } : name === "SubagentStop" ? (agentId ? { agentId } : {}) : {}, io, policy);
  }
  await record(layout, markerEntry(event, runId, io.clock.now(), overBound), io, policy);
  if (name === "SessionEnd") await closeSession(layout, runId, policy, io);
}

export async function sessionExists(layout: WorkspaceLayout, runId: string): Promise<boolean> {
  return fs.existsSync(layout.timelineFile(runId)) || spoolBacklog(layout, runId) > 0;
}

/** SessionEnd: the spool is flushed (by the marker's write), MCP entries left unadopted are filed, the spool folder goes. */
export async function closeSession(layout: WorkspaceLayout, runId: string, policy: Policy, io: HookIo): Promise<void> {
  await sweepHandoffs(layout, policy, io.clock, (m) => logHook(layout, "warning", "SessionEnd", m));
  // Only an empty folder goes: an entry another hook spools meanwhile is never removed with it.
  removeSpoolDirIfEmpty(layout, runId);
}

/** The event (with what was not read of one over the bound), or why there is none. */
function readEvent(io: Pick<HookIo, "stdin" | "oversized">): { event: ClaudeHookEvent; overBound?: OverBound } | { problem: string } {
  return io.oversized ? eventFromScan(io.oversized) : parseHookEvent(io.stdin);
}

export async function runClaudeHook(io: HookIo): Promise<void> {
  const parsed = readEvent(io);
  const event = "event" in parsed ? parsed.event : null;
  const overBound = "event" in parsed ? parsed.overBound : undefined;
  const layout = hookWorkspace(io, event);
  if (!layout) return; // not in a workspace: nothing to record, nothing to create
  try {
    if (!event) {
      logHook(layout, "warning", "unknown", `ignored: ${"problem" in parsed ? parsed.problem : ""}`);
      return;
    }
    const name = event.hook_event_name;
    const known = name === "PreToolUse" || (TOOL_EVENTS as readonly string[]).includes(name) || (MARKER_EVENTS as readonly string[]).includes(name);
    if (!known) {
      logHook(layout, "info", name, "ignored: aop does not act on this event");
      return;
    }
    const runId = runIdForSession(event.session_id);
    if (!runId) {
      logHook(layout, "warning", name, `session_id '${event.session_id.slice(0, 80)}' cannot name a run; not recorded`);
      if (name === "SessionStart") await printSessionStart(layout, io);
      return;
    }
    if (overBound) logHook(layout, "warning", name, overBoundNote(overBound));
    if (name === "PreToolUse") await notePreToolUse(layout, event, runId, io);
    else if ((TOOL_EVENTS as readonly string[]).includes(name)) await recordToolCall(layout, event, runId, io, overBound);
    else await onMarkerEvent(layout, event, runId, io, overBound);
  } catch (err) {
    logHook(layout, "error", event?.hook_event_name ?? "unknown", err instanceof Error ? err.message : String(err));
  }
}

/**
 * For the watchdog, when the second is up: if this process has not spooled its event yet (a machine
 * so loaded that reading stdin took the whole budget), spool it now, synchronously, from what stdin
 * gave so far, so that the session's next writer still records it. aop's own MCP calls are left to the
 * handoff sweep (their server entry is not lost either).
 */
export function rescueUnspooled(io: Pick<HookIo, "stdin" | "oversized" | "env" | "root" | "clock">): void {
  if (spooledHere) return;
  spooledHere = true;
  try {
    const parsed = readEvent(io);
    if (!("event" in parsed)) {
      // An event over the bound still being read when the second was up: the log says so, not "empty".
      const layout = io.oversized ? hookWorkspace(io, null) : null;
      if (layout) logHook(layout, "warning", "unknown", `not recorded within the hook's time budget: ${parsed.problem}`);
      return;
    }
    const { event, overBound } = parsed;
    const runId = runIdForSession(event.session_id);
    const layout = hookWorkspace(io, event);
    if (!runId || !layout) return;
    if ((TOOL_EVENTS as readonly string[]).includes(event.hook_event_name)) {
      // A refused MCP call never reached a server: nobody else records it.
      if (event.hook_event_name === "PermissionDenied" || !event.tool_name?.startsWith("mcp__")) spoolEntry(layout, entryForToolEvent(event, runId, io.clock.now(), undefined, overBound));
    } else if ((MARKER_EVENTS as readonly string[]).includes(event.hook_event_name)) spoolEntry(layout, markerEntry(event, runId, io.clock.now(), overBound));
  } catch {
    // out of time and out of options: nothing may reach the agent
  }
}
