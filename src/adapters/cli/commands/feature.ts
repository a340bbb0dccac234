// aop feature init|list|show|set-status: the feature.* tools with human output.
import type { Command } from "commander";
import { wholeNumberFlag } from "../flags/flags.js";
import { examples, runCommand } from "../program/run-command.js";

export function register(program: Command, summary: string): void {
  const feature = program.command("feature").description(summary).addHelpText("after", examples("aop feature init feat_login --title 'Login page'", "aop feature list"));

  feature
    .command("init")
    .description("create a feature (active) with its state.md")
    .argument("<feature-id>", "new feature id (letters, digits, . _ - : @ +)")
    .option("--title <text>", "short title")
    .option("--description <text>", "notes written into state.md's body")
    .option("--operation-id <id>", "idempotency key (default: a fresh one)")
    .addHelpText("after", examples("aop feature init feat_login --title 'Login page'"))
    .action(
      runCommand(async (ctx, opts, featureId: string) => {
        const { callTool, withOperationId } = await import("../sessions/tool-session.js");
        const args: Record<string, unknown> = { feature_id: featureId };
        if (opts.title !== undefined) args.title = opts.title;
        if (opts.description !== undefined) args.description = opts.description;
        const data = await callTool(ctx, "feature.init", withOperationId(args, opts.operationId));
        if (ctx.json) return ctx.printJson(data);
        ctx.out(`created feature ${data.feature.feature_id} (${data.feature.status}, version ${data.feature.version})`);
      }),
    );

  feature
    .command("list")
    .description("list features and their status")
    .option("--status <status>", "only active, blocked or merged")
    .addHelpText("after", examples("aop feature list", "aop feature list --status active --json"))
    .action(
      runCommand(async (ctx, opts) => {
        const { callTool } = await import("../sessions/tool-session.js");
        const data = await callTool(
          ctx,
          "feature.list",
          opts.status === undefined ? {} : { status: opts.status },
        );
        if (ctx.json) return ctx.printJson(data);
        if (data.features.length === 0) return ctx.out("no features yet — create one with `aop feature init <id>`");
        const { renderTable } = await import("../output/table.js");
        const { escapeInline } = await import("../output/escape.js");
        const s = ctx.style;
        const badge = (status: string) => (status === "active" ? s.green(status) : status === "blocked" ? s.yellow(status) : s.dim(status));
        ctx.out(
          renderTable(
            [{ header: "FEATURE" }, { header: "STATUS" }, { header: "VERSION", align: "right" }, { header: "UPDATED" }, { header: "TITLE" }],
            data.features.map((f) => [f.feature_id, badge(f.status), f.version === null ? "?" : String(f.version), f.updated_at ?? (f.state_missing ? s.red("state.md missing") : ""), escapeInline(f.title)]),
          ),
        );
      }),
    );

  feature
    .command("show")
    .description("show one feature's state and gate results")
    .argument("<feature-id>")
    .addHelpText("after", examples("aop feature show feat_login", "aop feature show feat_login --json"))
    .action(
      runCommand(async (ctx, _opts, featureId: string) => {
        const { callTool } = await import("../sessions/tool-session.js");
        const { escapeInline } = await import("../output/escape.js");
        const data = await callTool(ctx, "feature.get", { feature_id: featureId });
        if (ctx.json) return ctx.printJson(data);
        const f = data.feature;
        ctx.out(`${ctx.style.bold(f.feature_id)}${f.title ? ` — ${escapeInline(f.title)}` : ""}`);
        ctx.out(`  status   ${f.status}`);
        ctx.out(`  version  ${f.version}`);
        ctx.out(`  created  ${f.created_at}`);
        ctx.out(`  updated  ${f.updated_at}`);
        const gates = Object.entries(f.gates);
        if (gates.length === 0) ctx.out("  gates    none run yet");
        for (const [mode, g] of gates) ctx.out(`  gate ${mode.padEnd(8)} ${g.result === "pass" ? ctx.style.green("pass") : ctx.style.red("fail")}  ${g.at}  ${g.evidence}`);
      }),
    );

  feature
    .command("set-status")
    .description("move a feature between active, blocked and merged")
    .argument("<feature-id>")
    .argument("<status>", "active | blocked | merged")
    .option("--expected-version <n>", "fail with version_conflict unless the feature is at this version", wholeNumberFlag("--expected-version", 0))
    .option("--operation-id <id>", "idempotency key (default: a fresh one)")
    .addHelpText("after", examples("aop feature set-status feat_login blocked", "aop feature set-status feat_login merged --expected-version 3"))
    .action(
      runCommand(async (ctx, opts, featureId: string, status: string) => {
        const { callTool, withOperationId } = await import("../sessions/tool-session.js");
        const args: Record<string, unknown> = { feature_id: featureId, status };
        if (opts.expectedVersion !== undefined) args.expected_version = opts.expectedVersion;
        const data = await callTool(ctx, "feature.set_status", withOperationId(args, opts.operationId));
        if (ctx.json) return ctx.printJson(data);
        ctx.out(`${data.feature.feature_id}: ${data.previous_status} → ${data.feature.status} (version ${data.feature.version})`);
      }),
    );
}
