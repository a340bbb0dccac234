// aop state: the kernel's state just after one step of a run, rebuilt from the record (replay.state_at).
import type { Command } from "commander";
import { addFlags, wholeNumberFlag, type FlagSpec, type FlagValues } from "../flags/flags.js";
import { examples, runCommand, usageError } from "../program/run-command.js";
import type { CliContext } from "../program/context.js";

const STATE_FLAGS = [
  { flag: "at", value: "<n>", description: "the step: the state just after this sequence (required)", parse: wholeNumberFlag("--at", 0) },
  { flag: "diff", value: "<m>", description: "also show what changed between step <m> and step <n>", parse: wholeNumberFlag("--diff", 0) },
] as const satisfies readonly FlagSpec[];

export function register(program: Command, summary: string): void {
  addFlags(program.command("state").description(summary), STATE_FLAGS)
    .addHelpText(
      "after",
      "\n--run-id (a global flag) selects the run to read; the query itself is recorded in the current run.\n" +
        "Rebuilt from the timeline, the ledger's recorded answers, the evidence chains and the git history of\n" +
        ".checkpoints/ — never from today's files. A field the record cannot tell is shown as unknown, with why.\n" +
        examples("aop state --run-id run:demo --at 12", "aop state --run-id run:demo --at 12 --diff 4", "aop state --run-id run:demo --at 12 --json"),
    )
    .action(
      runCommand(async (ctx: CliContext, opts: FlagValues<typeof STATE_FLAGS>) => {
        const runId = ctx.globals.runId;
        if (!runId) throw usageError("--run-id is required", "list runs with `aop replay --list`");
        if (opts.at === undefined) throw usageError("--at <n> is required: the step whose state to show", `see the run's steps with \`aop replay --run-id ${runId}\``);
        const { withClient } = await import("../sessions/tool-session.js");
        // The run being read is an argument, not the identity the query is recorded under.
        const reader = Object.create(ctx, { globals: { value: { ...ctx.globals, runId: undefined }, enumerable: true } }) as CliContext;
        const args: Record<string, unknown> = { run_id: runId, sequence: opts.at, ...(opts.diff === undefined ? {} : { diff_sequence: opts.diff }) };
        const data = await withClient(reader, (call) => call("replay.state_at", args));
        if (ctx.json) ctx.printJson(data);
        else {
          const { renderState } = await import("../output/state-format.js");
          ctx.out(renderState(data, ctx.style));
        }
        return 0;
      }),
    );
}
