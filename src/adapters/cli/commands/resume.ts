// aop resume --from ORIGIN: the handoff note a pulled workspace left (aop handoff there, aop sync pull here),
// as the orientation the next session starts from (docs/handoff.md, "Handoff").
import type { Command } from "commander";
import { AopError } from "../../../core/errors.js";
import type { CliContext } from "../program/context.js";
import { addFlags, type FlagSpec, type FlagValues } from "../flags/flags.js";
import { examples, runCommand } from "../program/run-command.js";

const RESUME_FLAGS = [{ flag: "from", value: "<origin>", description: "the pulled workspace (its label, display name, 8+ hex of its id) or the git remote (its newest handoff)" }] as const satisfies readonly FlagSpec[];

export function register(program: Command, summary: string): void {
  addFlags(program.command("resume").description(summary), RESUME_FLAGS)
    .addHelpText("after", "\nReads only what `aop sync pull` brought; no network.\n" + examples("aop resume --from alice@laptop", "aop resume --from origin --json"))
    .action(runCommand(resume));
}

async function resume(ctx: CliContext, opts: FlagValues<typeof RESUME_FLAGS>): Promise<number> {
  if (opts.from === undefined || opts.from === "") throw new AopError("usage_error", "--from <origin> is required: the pulled workspace whose handoff to resume", { hint: "pulled workspaces: aop replay --list (ORIGIN column)" });
  const from = opts.from;
  const { originsMatching } = await import("../../../domains/origins/index.js");
  const { pulledHandoffs, renderHandoff } = await import("../../../domains/handoff/index.js");
  const { pulledOrigins } = await import("../sessions/pulled-records.js");
  const listing = await pulledOrigins(ctx);
  const candidates = originsMatching(listing.origins, from);
  if (candidates.length === 0) {
    throw new AopError("origin_not_found", `no pulled workspace or remote is called '${from.slice(0, 80)}'; pulled: ${listing.origins.map((o) => o.label).join(", ") || "none"}`, { hint: "fetch the other machines' records with `aop sync pull`" });
  }
  const newest = pulledHandoffs(ctx.layout, candidates, (m) => ctx.err(ctx.errStyle.yellow(`warning: ${m}`)))[0];
  if (!newest) {
    throw new AopError("handoff_not_found", `${candidates.length === 1 ? `origin ${candidates[0]!.label} has` : `none of the ${candidates.length} workspaces '${from.slice(0, 80)}' names has`} no handoff note`, {
      hint: "on the machine that did the work run `aop handoff` (it pushes the note), then `aop sync pull` here",
    });
  }
  const { origin, note } = newest;
  if (ctx.json) {
    ctx.printJson({ origin: { label: origin.label, remote: origin.remote, workspace_id: origin.workspace_id, display_name: origin.display_name, commit: origin.commit, committed_at: origin.committed_at, pulled_at: origin.pulled_at }, note });
    return 0;
  }
  ctx.out(renderHandoff(origin.label, note));
  ctx.out(ctx.style.dim(`\npulled ${origin.pulled_at} from ${origin.remote} (commit ${origin.commit.slice(0, 12)}); the records: aop replay --list --origin ${origin.label}`));
  return 0;
}
