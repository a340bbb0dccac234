// At Stop: is memory/CURRENT_STATE.md older than the session's transcript, and what to print about it
// under `hooks.claude.stop_reminder` (docs/agents.md). Stderr reaches nobody, so the reminder is JSON.
import fs from "node:fs";
import type { StopReminder } from "../../config/policy-types.js";
import { writeJsonAtomic } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readTextBounded } from "../../store/read-text-bounded.js";
import type { ClaudeHookEvent } from "./claude-event.js";
import { blockOutput, systemMessageOutput } from "./hook-output.js";

const USER_REMINDER =
  "aop: memory/CURRENT_STATE.md is older than this session's transcript. Ask the agent to update it (objective, current step, next action, blockers, unsurfaced results) before you end the session, so the next one can resume.";
const AGENT_REMINDER =
  "Before you stop: memory/CURRENT_STATE.md is older than this session's transcript. Update it now — Objective, Current Step, Next Action, Blockers, Unsurfaced Results — and the skill's checkpoint if you keep one, then finish. (aop asks this once per session.)";

/** What a stop event says that the reminder needs (Claude Code's names; every client's mapping gives them). */
export type StopFacts = Pick<ClaudeHookEvent, "transcript_path" | "stop_hook_active">;

function isStale(layout: WorkspaceLayout, event: StopFacts): boolean {
  if (typeof event.transcript_path !== "string" || event.transcript_path === "") return false;
  // lstat: a special file or a link is never read, only its time compared.
  const state = fs.lstatSync(layout.currentStateFile, { throwIfNoEntry: false });
  const transcript = fs.lstatSync(event.transcript_path, { throwIfNoEntry: false });
  if (!state?.isFile() || !transcript?.isFile()) return false;
  return state.mtimeMs < transcript.mtimeMs;
}

interface SessionState {
  stop_blocked_at?: string;
}

function readState(file: string): SessionState {
  const read = readTextBounded(file, 4096);
  if (read.status !== "ok" || read.binary) return {};
  try {
    const value = JSON.parse(read.text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as SessionState) : {};
  } catch {
    return {};
  }
}

/**
 * The Stop output (or "" for none). `block` blocks once per session — later stale stops get the
 * message — and never while `stop_hook_active` (the turn already continues because a hook blocked).
 */
export function stopOutput(layout: WorkspaceLayout, event: StopFacts, mode: StopReminder, runId: string | null, nowIso: string): string {
  const reminder = stopReminder(layout, event, mode, runId, nowIso);
  if (!reminder) return "";
  return reminder.mode === "block" ? blockOutput(reminder.text) : systemMessageOutput(reminder.text);
}

/** The reminder a stop gets, whatever shape its client prints it in (null for none). Same rules as stopOutput. */
export function stopReminder(layout: WorkspaceLayout, event: StopFacts, mode: StopReminder, runId: string | null, nowIso: string): { mode: "message" | "block"; text: string } | null {
  if (mode === "off" || event.stop_hook_active === true || !isStale(layout, event)) return null;
  if (mode === "block" && runId !== null) {
    const file = layout.hookSessionState(runId);
    const state = readState(file);
    if (state.stop_blocked_at === undefined) {
      writeJsonAtomic(file, { ...state, stop_blocked_at: nowIso });
      return { mode: "block", text: AGENT_REMINDER };
    }
  }
  return { mode: "message", text: USER_REMINDER };
}
