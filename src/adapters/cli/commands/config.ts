// aop config check: validate policy.yaml and aop.yaml (merged over defaults) and gates.yaml.
import type { Command } from "commander";
import { EXIT_FAILED } from "../program/exit-codes.js";
import { examples, runCommand } from "../program/run-command.js";

export function register(program: Command, summary: string): void {
  const config = program.command("config").description(summary).addHelpText("after", examples("aop config check"));
  config
    .command("check")
    .description("validate agentic/orchestrator/policy.yaml, aop.yaml and gates.yaml; exit 1 when invalid")
    .addHelpText("after", examples("aop config check", "aop config check --json"))
    .action(
      runCommand(async (ctx) => {
        const { checkConfig } = await import("../../../config/config-check.js");
        // Beyond the schema: the policy's RBAC grants against the tool catalog.
        const { loadCatalog } = await import("../../../catalog/catalog.js");
        const { rbacProblems } = await import("../../../catalog/catalog-check.js");
        const report = await checkConfig(ctx.layout, [(policy) => rbacProblems(policy, loadCatalog().tools)]);
        if (ctx.json) {
          ctx.printJson(report);
          return report.ok ? 0 : EXIT_FAILED;
        }
        const s = ctx.style;
        const files = [report.policy.file_exists ? "policy.yaml" : "", report.policy.aop_file_exists ? "aop.yaml" : ""].filter((f) => f !== "");
        const policyLine = !report.policy.valid ? s.red("invalid") : files.length > 0 ? s.green("ok") + s.dim(` (${files.join(" + ")})`) : s.green("ok") + s.dim(" (no policy.yaml: bundled defaults)");
        const gatesLine = !report.gates.valid ? s.red("invalid") : report.gates.file_exists ? `${s.green("ok")} (profiles: ${report.gates.profiles.join(", ")})` : s.dim("not present (needed for gates run)");
        ctx.out(`policy  ${policyLine}`);
        ctx.out(`gates   ${gatesLine}`);
        for (const p of report.problems) {
          ctx.out(`  ${s.red("✗")} ${p.file}: ${p.path === "" ? "" : p.path + " "}${p.message}`);
          if (p.hint) ctx.out(`    ${s.dim("fix: " + p.hint)}`);
        }
        return report.ok ? 0 : EXIT_FAILED;
      }),
    );
}
