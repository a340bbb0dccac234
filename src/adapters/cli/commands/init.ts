// aop init: scaffold policy, gates and the .aop/ skeleton without touching existing files, and give the
// workspace its id (.aop/workspace.json), kept from then on unless the workspace is copied elsewhere.
import type { Command } from "commander";
import { examples, runCommand } from "../program/run-command.js";

export function register(program: Command, summary: string): void {
  program
    .command("init")
    .description(summary)
    .option("--force", "overwrite existing policy and gates files (the feature index and the workspace id are never reset)")
    .addHelpText("after", examples("aop init", "aop init --root ./my-project --json"))
    .action(
      runCommand(async (ctx, opts) => {
        const { scaffoldWorkspace } = await import("../../../config/scaffold.js");
        const { toolsDocText } = await import("../../../catalog/tools-doc-file.js");
        const { ensureWorkspaceIdentity } = await import("../../../store/workspace-identity.js");
        const result = scaffoldWorkspace(ctx.layout, ctx.clock, { force: opts.force === true, extra: [{ path: ctx.layout.toolsDoc, contents: toolsDocText }] });
        const identity = await ensureWorkspaceIdentity(ctx.layout, ctx.clock, { warn: (m) => ctx.err(ctx.errStyle.yellow(`warning: ${m}`)) });
        const identityFile = ctx.layout.relative(ctx.layout.workspaceIdentityFile);
        const renewed: string[] = [];
        if (identity.outcome === "created") result.created.push(identityFile);
        else if (identity.outcome === "kept") result.kept.push(identityFile);
        else renewed.push(identityFile);
        if (ctx.json) {
          ctx.printJson({ ...result, renewed, workspace_id: identity.identity.workspace_id });
          return;
        }
        ctx.out(`workspace ${result.root}`);
        for (const p of result.created) ctx.out(`  ${ctx.style.green("created")}      ${p}`);
        for (const p of result.overwritten) ctx.out(`  ${ctx.style.yellow("overwritten")}  ${p}`);
        for (const p of renewed) ctx.out(`  ${ctx.style.yellow("renewed")}      ${p}  ${ctx.style.dim(`(${identity.reason ?? "new workspace id"}: new workspace id)`)}`);
        for (const p of result.kept) ctx.out(`  ${ctx.style.dim("kept")}         ${p}`);
        if (result.created.length === 0 && result.overwritten.length === 0 && renewed.length === 0) ctx.out("nothing to do: everything already exists");
      }, { createsWorkspace: true }),
    );
}
