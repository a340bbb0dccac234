// aop run start|heartbeat|stop|status: the run lease.
import type { Command } from "commander";
import { wholeNumberFlag } from "../flags/flags.js";
import { examples, runCommand } from "../program/run-command.js";
import type { Call } from "../sessions/tool-session.js";

/** The run to act on: --run-id, else the lease's run. */
async function targetRunId(call: Call, given: unknown): Promise<string> {
  if (typeof given === "string") return given;
  const { usageError } = await import("../program/run-command.js");
  const status = await call("run.status", {});
  if (!status.lease) throw usageError("there is no run lease; pass --run-id or start one with `aop run start`");
  return status.lease.run_id;
}

export function register(program: Command, summary: string): void {
  const run = program.command("run").description(summary).addHelpText("after", examples("aop run start", "aop run status"));

  run
    .command("start")
    .description("acquire the run lease (TTL from policy locks.lease_ttl_seconds)")
    .option("--new-run-id <id>", "the new run's id (default: run:<uuid>)")
    .option("--owner <name>", "lease owner (default: the session id, else the actor)")
    .option("--ttl <seconds>", "lease TTL in seconds", wholeNumberFlag("--ttl", 1))
    .option("--takeover", "take over an expired lease held by another owner")
    .option("--operation-id <id>", "idempotency key (default: a fresh one)")
    .addHelpText("after", examples("aop run start", "aop run start --owner planner-1 --ttl 600", "aop run start --takeover"))
    .action(
      runCommand(async (ctx, opts) => {
        const { callTool, withOperationId } = await import("../sessions/tool-session.js");
        const args: Record<string, unknown> = {};
        if (opts.newRunId !== undefined) args.run_id = opts.newRunId;
        if (opts.owner !== undefined) args.owner = opts.owner;
        if (opts.ttl !== undefined) args.ttl_seconds = opts.ttl;
        if (opts.takeover) args.takeover_stale_run = true;
        const data = await callTool(ctx, "run.start", withOperationId(args, opts.operationId));
        if (ctx.json) return ctx.printJson(data);
        const verb = data.outcome === "took_over" ? `taken over from ${data.previous_run_id}` : data.outcome === "already_held" ? "already held" : "acquired";
        ctx.out(`run ${data.lease.run_id} ${verb} by ${data.lease.owner}; lease until ${data.lease.lease_expires_at} (ttl ${data.lease.ttl_seconds}s)`);
        ctx.out(ctx.style.dim("tool calls now record into this run; keep it alive with `aop run heartbeat`"));
      }),
    );

  for (const [name, tool, description] of [
    ["heartbeat", "run.heartbeat", "extend the run lease by its TTL"],
    ["stop", "run.stop", "release the run lease (keeps run_id; lease_expires_at becomes the Unix epoch)"],
  ] as const) {
    run
      .command(name)
      .description(description)
      .option("--operation-id <id>", "idempotency key (default: a fresh one)")
      .addHelpText("after", examples(`aop run ${name}`, `aop run ${name} --run-id run:1b2c --json`))
      .action(
        runCommand(async (ctx, opts) => {
          const { withClient, withOperationId } = await import("../sessions/tool-session.js");
          const data = await withClient(ctx, async (call) => call(tool, withOperationId({ run_id: await targetRunId(call, ctx.globals.runId) }, opts.operationId)));
          if (ctx.json) return ctx.printJson(data);
          ctx.out(name === "stop" ? `run ${data.lease.run_id} released at ${data.lease.released_at}` : `run ${data.lease.run_id} lease extended until ${data.lease.lease_expires_at}`);
        }),
      );
  }

  run
    .command("status")
    .description("show the run lease: active, expired or released (aop's own, or one the upstream orchestrator wrote)")
    .addHelpText("after", examples("aop run status", "aop run status --json"))
    .action(
      runCommand(async (ctx) => {
        const { callTool } = await import("../sessions/tool-session.js");
        const data = await callTool(ctx, "run.status", {});
        if (ctx.json) return ctx.printJson(data);
        if (!data.lease) return ctx.out("no run lease — start one with `aop run start`");
        const s = ctx.style;
        const state = data.state === "active" ? s.green("active") : data.state === "expired" ? s.red("expired (stale)") : s.dim("released");
        const when = data.state === "active" && data.expires_in_seconds !== null ? `, expires in ${data.expires_in_seconds}s` : "";
        ctx.out(`run ${data.lease.run_id}  ${state}  owner ${data.lease.owner}${when}`);
        if (data.lease.instance_id !== "default" && data.lease_file) ctx.out(s.dim(`  lease file ${data.lease_file} (written by the upstream orchestrator)`));
        for (const [feature, roles] of Object.entries(data.lease.sessions)) {
          for (const [role, session] of Object.entries(roles)) ctx.out(`  ${feature}  ${role} → ${session}`);
        }
      }),
    );
}
