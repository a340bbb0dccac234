// Plugs the timeline writer into the ToolRuntime according to policy (docs/replay.md): writes only when
// innovation.replay_debugger and observability.replay.enabled are both on; `required` fails the call
// when the entry cannot be written, `best_effort` warns on stderr and never fails it. A call whose
// client files its own session (a handoff id) leaves its entry for that client (timeline-handoff.ts).
import fs from "node:fs";
import { AopError } from "../../core/errors.js";
import type { Clock } from "../../core/clock.js";
import { isoUtc } from "../../core/clock.js";
import type { Policy } from "../../config/policy-types.js";
import { replayWritesEnabled } from "../../config/policy-types.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import type { TimelineHook } from "../../catalog/timeline-hook.js";
import { entryFromCall, type EntryWithoutSequence } from "./timeline-entry.js";
import { TimelineWriter } from "./timeline-writer.js";
import { pruneRuns } from "./run-retention.js";
import { HANDOFF_GRACE_MS, fileStaleHandoffs, handOffEntry } from "./timeline-handoff.js";

type Warn = (message: string) => void;

/** Appends entries, applying run retention (`max_runs`) whenever an append creates a run. */
export function retainedAppender(layout: WorkspaceLayout, policy: Policy, clock: Clock, warn: Warn): { writer: TimelineWriter; append(entry: EntryWithoutSequence): Promise<void>; retain(runId: string, created: boolean): Promise<void> } {
  const retention = policy.observability.replay.retention;
  const writer = new TimelineWriter(layout, () => retention.max_entries_per_run, warn);
  const retain = async (runId: string, created: boolean) => {
    if (!created) return;
    try {
      await pruneRuns(layout, retention.max_runs, runId, isoUtc(clock.now()));
    } catch (err) {
      warn(`could not apply replay retention (max_runs ${retention.max_runs}): ${(err as Error).message}`);
    }
  };
  return { writer, retain, append: async (entry) => retain(entry.run_id, (await writer.append(entry)).createdRun) };
}

/** Files the handoff entries nobody adopted within the grace, each in its own run. */
export async function sweepHandoffs(layout: WorkspaceLayout, policy: Policy, clock: Clock, warn: Warn, appender = retainedAppender(layout, policy, clock, warn)): Promise<void> {
  if (!replayWritesEnabled(policy)) return;
  try {
    const { unreadable } = await fileStaleHandoffs(layout, appender.append);
    if (unreadable > 0) warn(`removed ${unreadable} unreadable handoff entr${unreadable === 1 ? "y" : "ies"} from ${layout.relative(layout.timelineHandoffDir)}`);
  } catch (err) {
    warn(`could not file waiting handoff entries: ${(err as Error).message}`);
  }
}

/** `transport` is recorded on every entry this hook writes (`"mcp"` inside `aop mcp`, docs/replay.md). */
export function createTimelineHook(layout: WorkspaceLayout, policy: Policy, clock: Clock, warn: Warn, transport?: "mcp" | "mcp-http"): TimelineHook | undefined {
  if (!replayWritesEnabled(policy)) return undefined;
  const { write_mode } = policy.observability.replay;
  const appender = retainedAppender(layout, policy, clock, warn);
  let lastSweep = 0;
  const entryOf = (call: Parameters<TimelineHook>[0]): EntryWithoutSequence => (transport ? { ...entryFromCall(call), transport } : entryFromCall(call));
  return async (call) => {
    // A read-only call in a workspace aop never wrote to leaves it as it was: no .aop/ tree appears just
    // because someone looked (docs/hardening.md, "Litter").
    if (!call.mutating && !fs.existsSync(layout.aopDir)) return;
    try {
      if (call.handoff_id === undefined) {
        await appender.append(entryOf(call));
        return;
      }
      handOffEntry(layout, call.handoff_id, entryOf(call));
    } catch (err) {
      const message = `could not write the timeline entry for ${call.tool_name} in run ${call.identity.run_id}: ${(err as Error).message}`;
      if (write_mode === "required") throw new AopError("replay_timeline_write_failed", message, { cause: err });
      warn(message);
      return;
    }
    // Entries left by earlier calls that no hook adopted: filed at most once per grace period.
    if (Date.now() - lastSweep > HANDOFF_GRACE_MS) {
      lastSweep = Date.now();
      void sweepHandoffs(layout, policy, clock, warn, appender);
    }
  };
}
