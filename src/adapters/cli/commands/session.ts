// aop session assign: map feature → role → agent session id in the active run.
import type { Command } from "commander";
import { examples, runCommand } from "../program/run-command.js";

export function register(program: Command, summary: string): void {
  const session = program.command("session").description(summary).addHelpText("after", examples("aop session assign --feature-id feat_login --role builder --session sess-42"));
  session
    .command("assign")
    .description("assign an agent session to a role on an active feature (needs an active run)")
    .requiredOption("--feature-id <id>", "an active feature")
    .requiredOption("--role <role>", "orchestrator | planner | builder | qa | system")
    .requiredOption("--session <id>", "the agent's session id")
    .option("--operation-id <id>", "idempotency key (default: a fresh one)")
    .addHelpText("after", examples("aop session assign --feature-id feat_login --role builder --session sess-42"))
    .action(
      runCommand(async (ctx, opts) => {
        const { callTool, withOperationId } = await import("../sessions/tool-session.js");
        const data = await callTool(
          ctx,
          "session.assign",
          withOperationId({ feature_id: opts.featureId, role: opts.role, session_id: opts.session }, opts.operationId),
        );
        if (ctx.json) return ctx.printJson(data);
        ctx.out(`feature ${data.feature_id}: ${data.role} → ${data.session_id} (run ${data.lease.run_id})`);
      }),
    );
}
