// aop agent orientation | prompt <resume|handoff>: what an agent starts from and writes before it
// stops — the same texts as the MCP resource aop://orientation and the MCP prompts (and, for the
// orientation, what Claude Code gets at SessionStart).
import type { Command } from "commander";
import { examples, runCommand } from "../program/run-command.js";
import type { CliContext } from "../program/context.js";

async function promptContext(ctx: CliContext) {
  return { layout: ctx.layout, clock: ctx.clock, env: process.env, doctorFamilies: async () => (await import("../../../app/doctor-checks.js")).DOCTOR_FAMILIES };
}

export function register(program: Command, summary: string): void {
  const agent = program.command("agent").description(summary).addHelpText("after", examples("aop agent orientation", "aop agent prompt resume --skill architect", "aop agent prompt handoff"));
  agent
    .command("orientation")
    .description("the orientation: decisions waiting on the user, critical findings, CURRENT_STATE.md, each open checkpoint's next action")
    .addHelpText("after", examples("aop agent orientation", "aop agent orientation --json"))
    .action(
      runCommand(async (ctx) => {
        const { loadClientContext } = await import("../../../domains/agents/index.js");
        const { buildOrientation } = await loadClientContext();
        const services = await promptContext(ctx);
        const { text } = await buildOrientation(ctx.layout, ctx.clock, process.env, await services.doctorFamilies());
        if (ctx.json) return ctx.printJson({ uri: "aop://orientation", text });
        ctx.out(text);
      }),
    );
  agent
    .command("prompt")
    .description("an MCP prompt as text: resume (where to pick up) or handoff (what to write before stopping)")
    .argument("<name>", "resume | handoff")
    .option("--skill <skill>", "the skill whose checkpoint to use")
    .addHelpText("after", examples("aop agent prompt resume", "aop agent prompt resume --skill architect", "aop agent prompt handoff --json"))
    .action(
      runCommand(async (ctx, opts, name: string) => {
        const { getPrompt } = await import("../../mcp/prompts.js");
        const prompt = await getPrompt(await promptContext(ctx), name, typeof opts.skill === "string" ? opts.skill : null);
        if (ctx.json) return ctx.printJson(prompt);
        for (const [i, m] of prompt.messages.entries()) {
          const c = m.content as { type: string; text?: string; resource?: { uri: string; text?: string } };
          if (i > 0) ctx.out("");
          ctx.out(c.type === "resource" ? `[${c.resource?.uri}]\n${c.resource?.text ?? ""}` : (c.text ?? ""));
        }
      }),
    );
}
