// Plugs the timeline writer into the ToolRuntime according to policy (DESIGN §4): writes only when
// innovation.replay_debugger and observability.replay.enabled are both on; `required` fails the call
// when the entry cannot be written, `best_effort` warns on stderr and never fails it.
import fs from "node:fs";
import { AopError } from "../../core/errors.js";
import type { Clock } from "../../core/clock.js";
import { isoUtc } from "../../core/clock.js";
import type { Policy } from "../../config/policy-types.js";
import { replayWritesEnabled } from "../../config/policy-types.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import type { TimelineHook } from "../../catalog/timeline-hook.js";
import { entryFromCall } from "./timeline-entry.js";
import { TimelineWriter } from "./timeline-writer.js";
import { pruneRuns } from "./run-retention.js";

export function createTimelineHook(layout: WorkspaceLayout, policy: Policy, clock: Clock, warn: (message: string) => void): TimelineHook | undefined {
  if (!replayWritesEnabled(policy)) return undefined;
  const { write_mode, retention } = policy.observability.replay;
  const writer = new TimelineWriter(layout, () => retention.max_entries_per_run, warn);
  return async (call) => {
    // A read-only call in a workspace aop never wrote to leaves it as it was: no .aop/ tree appears just
    // because someone looked (docs/hardening.md, "Litter").
    if (!call.mutating && !fs.existsSync(layout.aopDir)) return;
    let outcome;
    try {
      outcome = await writer.append(entryFromCall(call));
    } catch (err) {
      const message = `could not write the timeline entry for ${call.tool_name} in run ${call.identity.run_id}: ${(err as Error).message}`;
      if (write_mode === "required") throw new AopError("replay_timeline_write_failed", message, { cause: err });
      warn(message);
      return;
    }
    if (outcome.createdRun) {
      try {
        await pruneRuns(layout, retention.max_runs, call.identity.run_id, isoUtc(clock.now()));
      } catch (err) {
        warn(`could not apply replay retention (max_runs ${retention.max_runs}): ${(err as Error).message}`);
      }
    }
  };
}
