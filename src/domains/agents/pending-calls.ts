// Calls Claude Code announced (PreToolUse) and never finished: refused by a permission rule, by the
// user or by another hook's PreToolUse deny. Claude Code 2.1.332 fires no event after such a refusal
// (PermissionDenied only for its auto-mode classifier), so aop notes each announced call under its
// tool_use_id, a finished call (PostToolUse, PostToolUseFailure, PermissionDenied) takes its note
// away, and the notes left when the agent stops are recorded as refused calls (docs/agents.md).
import fs from "node:fs";
import path from "node:path";
import { removeFile, writeJsonAtomic } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readTextBounded } from "../../store/read-text-bounded.js";
import { idProblem } from "../../core/ids.js";
import { asEntry, type EntryWithoutSequence } from "../replay/index.js";
import { compareText } from "../../core/compare-text.js";

const MAX_NOTE_BYTES = 64 * 1024;

function dir(layout: WorkspaceLayout, runId: string): string {
  return path.join(layout.replayDir, `${runId}.pending`);
}

function noteFile(layout: WorkspaceLayout, runId: string, toolUseId: string): string | null {
  return idProblem(toolUseId) === null ? path.join(dir(layout, runId), `${toolUseId}.json`) : null;
}

/** Notes the call, with the entry to record if it never finishes. */
export function notePending(layout: WorkspaceLayout, runId: string, toolUseId: string, refused: EntryWithoutSequence): void {
  const file = noteFile(layout, runId, toolUseId);
  if (file) writeJsonAtomic(file, refused);
}

/** The call finished (whatever way): its note goes. */
export function clearPending(layout: WorkspaceLayout, runId: string, toolUseId: string | undefined): void {
  const file = typeof toolUseId === "string" ? noteFile(layout, runId, toolUseId) : null;
  if (file && fs.existsSync(file)) removeFile(file);
}

/**
 * Takes the notes of calls that never finished: the main agent's at Stop (`agentId` undefined), a
 * subagent's at its SubagentStop, every one at SessionEnd (`all`). Returns their entries, oldest first.
 */
export function takeUnfinished(layout: WorkspaceLayout, runId: string, scope: { agentId?: string; all?: boolean }): EntryWithoutSequence[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir(layout, runId)).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  const taken: EntryWithoutSequence[] = [];
  for (const name of names) {
    const file = path.join(dir(layout, runId), name);
    const read = readTextBounded(file, MAX_NOTE_BYTES);
    let entry: EntryWithoutSequence | null = null;
    if (read.status === "ok" && !read.truncated && !read.binary) {
      try {
        const parsed = asEntry({ ...(JSON.parse(read.text) as Record<string, unknown>), sequence: 0 });
        if (parsed) {
          const { sequence: _s, ...rest } = parsed;
          entry = rest;
        }
      } catch {
        entry = null;
      }
    }
    if (entry && !scope.all && entry.agent_id !== scope.agentId) continue;
    removeFile(file);
    if (entry) taken.push(entry);
  }
  if (scope.all) {
    try {
      fs.rmdirSync(dir(layout, runId));
    } catch {
      // not empty (a note written meanwhile) or already gone
    }
  }
  return taken.sort((a, b) => compareText(a.ts, b.ts));
}
