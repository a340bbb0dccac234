// aop migrate: rewrite what older aop versions wrote into the shapes the upstream orchestrator reads
// (DESIGN §21): timeline lines into the seed's 14 keys plus the run's sidecar, gates.yaml's
// default_profile into policy.yaml's gate_selection.default_profile, and policy.yaml's aop-only keys into
// aop.yaml. Once (a second run finds nothing), every old file backed up under
// .aop/runtime/replay/backup/<time>/ first.
import type { Command } from "commander";
import { examples, runCommand } from "../program/run-command.js";

export function register(program: Command, summary: string): void {
  program
    .command("migrate")
    .description(summary)
    .option("--dry-run", "say what would be rewritten, change nothing")
    .addHelpText(
      "after",
      "\nThe doctor names what needs it (DRIFT_013 timelines, DRIFT_014 gates.yaml and policy.yaml). Safe to run again: files\nalready in the new shapes are not touched. Policy keys only aop knows (attest, hooks, …) move to\nagentic/orchestrator/aop.yaml, which the upstream orchestrator never reads.\n" +
        examples("aop migrate --dry-run", "aop migrate", "aop migrate --json"),
    )
    .action(
      runCommand(async (ctx, opts) => {
        const { migrateTimeline, migrationBackupDir, timelineRunIds } = await import("../../../domains/replay/index.js");
        const { migrateConfig } = await import("../../../config/config-migrate.js");
        const { isoUtc } = await import("../../../core/clock.js");
        const dryRun = opts.dryRun === true;
        const stamp = isoUtc(ctx.clock.now()).replace(/[:.]/g, "-");
        const runs = [];
        for (const runId of timelineRunIds(ctx.layout)) {
          const m = await migrateTimeline(ctx.layout, runId, { dryRun, stamp });
          if (m.old_lines > 0) runs.push(m);
        }
        const config = await migrateConfig(ctx.layout, { dryRun, backupDir: migrationBackupDir(ctx.layout, stamp) });
        const configChanged = config.changed.length > 0;
        const payload = { dry_run: dryRun, runs, config: configChanged ? config : null };
        if (ctx.json) {
          ctx.printJson(payload);
          return;
        }
        const verb = dryRun ? "would rewrite" : "rewrote";
        for (const r of runs) ctx.out(`${verb} run ${r.run_id}: ${r.old_lines} line${r.old_lines === 1 ? "" : "s"} in the old shape, ${r.extras_moved} with extras moved to its sidecar${r.backups.length > 0 ? ` (backup ${r.backups.join(", ")})` : ""}`);
        if (config.default_profile !== null) {
          const where = config.policy_had_one ? "removed from gates.yaml (policy.yaml already names one)" : "moved to policy.yaml gate_selection.default_profile";
          ctx.out(`${dryRun ? "would move" : "moved"} gates.yaml default_profile (${config.default_profile}): ${where}${config.backups.length > 0 ? ` (backup ${config.backups.join(", ")})` : ""}`);
        }
        if (config.aop_keys.length > 0) {
          const kept = config.aop_keys_kept.length > 0 ? `; aop.yaml already set ${config.aop_keys_kept.join(", ")}, which it keeps` : "";
          ctx.out(`${dryRun ? "would move" : "moved"} policy.yaml's aop-only keys (${config.aop_keys.join(", ")}) to agentic/orchestrator/aop.yaml${kept}${config.backups.length > 0 ? ` (backup ${config.backups.join(", ")})` : ""}`);
        }
        if (runs.length === 0 && !configChanged) ctx.out("nothing to migrate: every timeline, gates.yaml and policy.yaml are in the shapes the upstream orchestrator reads");
      }),
    );
}
