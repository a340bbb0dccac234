// aop sync push | pull | status | prune: this workspace's records on a git remote under
// refs/aop/records/<workspace_id>, and other workspaces' records pulled beside the local ones, read-only
// (DESIGN §24, docs/sync.md). Git plumbing only: branches, index and work tree are never touched.
import type { Command } from "commander";
import { wholeNumberFlag } from "../flags/flags.js";
import { examples, runCommand } from "../program/run-command.js";

const REMOTE_HELP = "a git remote of this repository (default: origin)";

export function register(program: Command, summary: string): void {
  const sync = program
    .command("sync")
    .description(summary)
    .addHelpText("after", examples("aop sync push", "aop sync pull", "aop sync status", "aop sync prune --dry-run") + "\nRecords go to refs/aop/records/<workspace_id> on the remote; see docs/sync.md for what is and is not pushed.\n");

  sync
    .command("push")
    .description("publish this workspace's records as one commit on refs/aop/records/<workspace_id> of REMOTE")
    .argument("[remote]", REMOTE_HELP)
    .option("--name <name>", "the display name other workspaces see (kept in .aop/workspace.json; default <user>@<host>)")
    .addHelpText(
      "after",
      examples("aop sync push", "aop sync push origin --name ada@laptop", "aop sync push --json") +
        "\nFast-forward only; a rejected push fetches the remote's commit and tries again. Timelines go in segments of\n4,096 lines, so a push after a few entries sends only the last segment. Fails with sync_nothing_to_push when the\nremote already holds every record.\n",
    )
    .action(
      runCommand(async (ctx, opts: { name?: string }, remote?: string) => {
        const { pushRecords } = await import("../../../domains/sync/index.js");
        const { AopError } = await import("../../../core/errors.js");
        const result = await pushRecords(ctx.layout, ctx.clock, { ...(remote ? { remote } : {}), ...(opts.name ? { name: opts.name } : {}), note: (m) => ctx.err(m) });
        if (result.status === "up_to_date") {
          throw new AopError("sync_nothing_to_push", `nothing to push: ${result.remote} already holds these records (${result.ref} at ${result.commit.slice(0, 12)})`, {
            details: { remote: result.remote, ref: result.ref, commit: result.commit },
            hint: "record something first (a tool call, a gate run), or see what is pushed with `aop sync status`",
          });
        }
        if (ctx.json) return ctx.printJson(result);
        const { renderPush } = await import("../output/sync-format.js");
        ctx.out(renderPush(result, ctx.style));
      }),
    );

  sync
    .command("pull")
    .description("fetch every workspace's records from REMOTE and lay them out read-only under .aop/remote/<remote>/<workspace_id>/")
    .argument("[remote]", REMOTE_HELP)
    .addHelpText(
      "after",
      examples("aop sync pull", "aop sync pull origin --json") +
        "\nPulled records are untrusted: a tree with a path outside the records layout, '..', a symbolic link, a submodule\nor an oversized file is refused whole (sync_remote_tree_refused), the other origins are still pulled.\n",
    )
    .action(
      runCommand(async (ctx, _opts, remote?: string) => {
        const { pullRecords } = await import("../../../domains/sync/index.js");
        const result = await pullRecords(ctx.layout, ctx.clock, remote ? { remote } : {});
        const refused = result.origins.filter((o) => o.status === "refused");
        if (ctx.json) ctx.printJson(result);
        else {
          const { renderPull } = await import("../output/sync-format.js");
          ctx.out(renderPull(result, ctx.style));
        }
        if (refused.length > 0) {
          if (!ctx.json) ctx.err(`error sync_remote_tree_refused: ${refused.length} origin${refused.length === 1 ? "" : "s"} refused (see above)`);
          return 1;
        }
      }),
    );

  sync
    .command("status")
    .description("what is local only and what is pushed (per run), which origins were pulled and how far behind each is")
    .argument("[remote]", REMOTE_HELP)
    .option("--offline", "do not ask the remote; compare with what the last push or pull saw")
    .addHelpText("after", examples("aop sync status", "aop sync status origin --offline --json"))
    .action(
      runCommand(async (ctx, opts: { offline?: boolean }, remote?: string) => {
        const { syncStatus } = await import("../../../domains/sync/index.js");
        const status = await syncStatus(ctx.layout, ctx.clock, { ...(remote ? { remote } : {}), offline: opts.offline === true });
        if (ctx.json) return ctx.printJson(status);
        const { renderStatus } = await import("../output/sync-format.js");
        ctx.out(renderStatus(status, ctx.style));
      }),
    );

  sync
    .command("prune")
    .description("drop local timelines a remote already holds in full and older than --older-than days (whole runs only)")
    .option("--older-than <days>", "retention age in days (default 30, the idempotency ledger's max_age_days default)", wholeNumberFlag("--older-than", 0, 36_500))
    .option("--dry-run", "say what would be dropped, change nothing")
    .addHelpText(
      "after",
      examples("aop sync prune --dry-run", "aop sync prune --older-than 7") + "\nA run with any entry no remote holds, or named by a run lease, is never dropped. Dropped runs are counted in\n.aop/runtime/replay/retention.json like runs dropped by replay retention.\n",
    )
    .action(
      runCommand(async (ctx, opts: { olderThan?: number; dryRun?: boolean }) => {
        const { pruneRecords } = await import("../../../domains/sync/index.js");
        const result = await pruneRecords(ctx.layout, ctx.clock, { ...(opts.olderThan !== undefined ? { olderThanDays: opts.olderThan } : {}), dryRun: opts.dryRun === true });
        if (ctx.json) return ctx.printJson(result);
        const { renderPrune } = await import("../output/sync-format.js");
        ctx.out(renderPrune(result, ctx.style));
      }),
    );
}
