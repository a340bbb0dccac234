// aop init: scaffold policy, gates and the .aop/ skeleton without touching existing files.
import type { Command } from "commander";
import { examples, runCommand } from "../run-command.js";

export function register(program: Command, summary: string): void {
  program
    .command("init")
    .description(summary)
    .option("--force", "overwrite existing policy and gates files (the feature index is never reset)")
    .addHelpText("after", examples("aop init", "aop init --root ./my-project --json"))
    .action(
      runCommand(async (ctx, opts) => {
        const { scaffoldWorkspace } = await import("../../../config/scaffold.js");
        const { initExtraFiles } = await import("../init-extra-files.js");
        const result = scaffoldWorkspace(ctx.layout, ctx.clock, { force: opts.force === true, extra: await initExtraFiles(ctx) });
        if (ctx.json) {
          ctx.printJson(result);
          return;
        }
        ctx.out(`workspace ${result.root}`);
        for (const p of result.created) ctx.out(`  ${ctx.style.green("created")}      ${p}`);
        for (const p of result.overwritten) ctx.out(`  ${ctx.style.yellow("overwritten")}  ${p}`);
        for (const p of result.kept) ctx.out(`  ${ctx.style.dim("kept")}         ${p}`);
        if (result.created.length === 0 && result.overwritten.length === 0) ctx.out("nothing to do: everything already exists");
      }, { createsWorkspace: true }),
    );
}
