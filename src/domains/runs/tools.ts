// Tool handlers for run.* and session.assign.
import type { ToolHandlers } from "../../catalog/tool-types.js";
import { assignSession, heartbeatRun, runStatus, startRun, stopRun } from "./run-service.js";

export const handlers: ToolHandlers = {
  "run.start": async (args, ctx) =>
    startRun(ctx.layout, ctx.clock, {
      ...(args.run_id ? { run_id: args.run_id } : {}),
      owner: args.owner ?? ctx.call.session_id ?? ctx.call.actor_type,
      actor_type: ctx.call.actor_type,
      ttl_seconds: args.ttl_seconds ?? ctx.policy.locks.lease_ttl_seconds,
      ...(args.takeover_stale_run !== undefined ? { takeover_stale_run: args.takeover_stale_run } : {}),
    }),
  "run.heartbeat": async (args, ctx) => ({ lease: await heartbeatRun(ctx.layout, ctx.clock, args.run_id) }),
  "run.stop": async (args, ctx) => ({ lease: await stopRun(ctx.layout, ctx.clock, args.run_id) }),
  "run.status": async (_args, ctx) => runStatus(ctx.layout, ctx.clock),
  "session.assign": async (args, ctx) => ({
    lease: await assignSession(ctx.layout, ctx.clock, args),
    feature_id: args.feature_id,
    role: args.role,
    session_id: args.session_id,
  }),
};
