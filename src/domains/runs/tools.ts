// Tool handlers for run.* and session.assign.
import type { ToolHandlers } from "../../catalog/tool-types.js";
import { assignSession, heartbeatRun, runStatus, startRun, stopRun } from "./run-service.js";

export const handlers: ToolHandlers = {
  "run.start": async (args: { run_id?: string; owner?: string; ttl_seconds?: number; takeover_stale_run?: boolean }, ctx) =>
    startRun(ctx.layout, ctx.clock, {
      ...(args.run_id ? { run_id: args.run_id } : {}),
      owner: args.owner ?? ctx.call.session_id ?? ctx.call.actor_type,
      actor_type: ctx.call.actor_type,
      ttl_seconds: args.ttl_seconds ?? ctx.policy.locks.lease_ttl_seconds,
      ...(args.takeover_stale_run !== undefined ? { takeover_stale_run: args.takeover_stale_run } : {}),
    }),
  "run.heartbeat": async (args: { run_id: string }, ctx) => ({ lease: await heartbeatRun(ctx.layout, ctx.clock, args.run_id) }),
  "run.stop": async (args: { run_id: string }, ctx) => ({ lease: await stopRun(ctx.layout, ctx.clock, args.run_id) }),
  "run.status": async (_args: object, ctx) => runStatus(ctx.layout, ctx.clock),
  "session.assign": async (args: { feature_id: string; role: string; session_id: string }, ctx) => ({
    lease: await assignSession(ctx.layout, ctx.clock, args),
    feature_id: args.feature_id,
    role: args.role,
    session_id: args.session_id,
  }),
};
