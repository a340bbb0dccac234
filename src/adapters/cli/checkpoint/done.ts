// checkpoint done <skill> [--verify] [--status S]: the checkpoint.done tool — pop next_actions[0] into
// recently_done; with --verify, run its done_when first (output shown on stderr as it arrives, with
// the policy's allow-listed environment, as over MCP) and pop only on exit 0.
import { CHECKPOINT_STATUSES, actionText, type DoneWhenOutput } from "../../../domains/checkpoints/index.js";
import type { CliContext } from "../program/context.js";
import { parseWholeNumberFlag } from "../flags/flags.js";
import { usageError } from "../program/run-command.js";
import { problemLine } from "../output/checkpoint-format.js";
import { formatDuration } from "../../../core/time-format.js";

function doneArgs(opts: Record<string, unknown>, skill: string): Record<string, unknown> {
  const args: Record<string, unknown> = { skill };
  if (opts.verify === true) args.verify = true;
  if (opts.status !== undefined) {
    if (!(CHECKPOINT_STATUSES as readonly unknown[]).includes(opts.status)) throw usageError(`--status must be ${CHECKPOINT_STATUSES.join(", ")} (got '${String(opts.status)}')`);
    args.status = opts.status;
  }
  if (opts.timeout !== undefined) {
    args.timeout_seconds = parseWholeNumberFlag("--timeout", String(opts.timeout), 1, 86_400, "seconds, e.g. --timeout 600");
  }
  return args;
}

export async function run(ctx: CliContext, opts: Record<string, unknown>, skill: unknown): Promise<number> {
  const args = doneArgs(opts, String(skill));
  const { withClient, withOperationId } = await import("../sessions/tool-session.js");
  if (args.verify) ctx.err(ctx.errStyle.dim(`running done_when of ${String(skill)}'s next action…`));
  const onProgress = (event: unknown) => {
    const chunk = (event as Partial<DoneWhenOutput>).done_when_output;
    if (chunk) process.stderr.write(chunk);
  };
  const data = await withClient(ctx, (call) => call("checkpoint.done", withOperationId(args, opts.operationId), { onProgress }));
  if (ctx.json) {
    ctx.printJson(data);
    return 0;
  }
  const s = ctx.style;
  if (data.verify) ctx.out(`${s.green("verified")} \`${data.verify.command}\` exited 0 in ${formatDuration(data.verify.duration_ms)}`);
  ctx.out(`${s.green("done")} ${actionText(data.done.action)}`);
  ctx.out(data.next_action === null ? `queue empty (status ${data.status})` : `next (${data.remaining} left): ${actionText(data.next_action)}`);
  for (const w of data.warnings) ctx.out(problemLine("warning", w, s));
  return 0;
}
