// aop continuity doctor: diagnoses memory/CURRENT_STATE.md (the memory-continuity protocol,
// docs/continuity.md) in one or more workspaces. The bin `continuity-doctor` runs this same definition and body.
import os from "node:os";
import type { Command } from "commander";
import type { CliContext } from "../program/context.js";
import { addFlags, type FlagSpec } from "../flags/flags.js";
import { globalFlag } from "../flags/global-flags.js";
import { examples, runCommand, usageError } from "../program/run-command.js";

/** The doctor's flags, declared once for `aop continuity doctor` and the `continuity-doctor` bin. */
const CONTINUITY_DOCTOR_FLAGS: readonly FlagSpec[] = [
  { flag: "workspace", value: "<dir>", repeatable: true, description: "a workspace to check (repeatable; default: the workspace root)" },
  { flag: "all-agents", description: "check every OpenClaw workspace named in $OPENCLAW_STATE_DIR/openclaw.json (default ~/.openclaw)" },
  { flag: "transcripts", value: "<dir>", description: "compare with the session transcripts (*.jsonl) under DIR instead of the OpenClaw and Claude Code ones" },
];

/** The `continuity-doctor` bin's own flags (in `aop` they are global flags). */
export const CONTINUITY_DOCTOR_BIN_FLAGS: readonly FlagSpec[] = [
  { ...globalFlag("root"), description: "workspace root checked when no --workspace is given (default: AOP_ROOT, else the nearest folder with .aop/, agentic/orchestrator/ or .git)" },
  { ...globalFlag("json"), description: "print the report as JSON" },
];

export function register(program: Command, summary: string): void {
  const group = program
    .command("continuity")
    .description(summary)
    .addHelpText("after", examples("aop continuity doctor", "aop continuity doctor --all-agents"));
  defineContinuityDoctor(group.command("doctor"), "aop continuity doctor");
}

/** Flags, help and action of the doctor, applied to `aop continuity doctor` or to the bin's program. */
export function defineContinuityDoctor(command: Command, invocation: string): Command {
  return addFlags(command.description("check memory/CURRENT_STATE.md: present, fresh, six sections, no placeholders; exit 2 critical, 1 warning, 0 healthy"), CONTINUITY_DOCTOR_FLAGS)
    .addHelpText(
      "after",
      examples(invocation, `${invocation} --workspace ~/.openclaw/workspace --workspace ../other-project`, `${invocation} --all-agents --json`),
    )
    .action(runCommand(continuityDoctor, CONTINUITY_RUN_OPTIONS));
}

/** A folder holding memory/ is a workspace for the continuity doctor (the protocol's own folder). */
const CONTINUITY_RUN_OPTIONS = { rootMarkers: ["memory"] } as const;

/** The command body: plan the workspaces, run the CONT_* checks on each, print; exit code of the worst. */
async function continuityDoctor(ctx: CliContext, opts: Record<string, unknown>): Promise<number> {
  const { isDirectory } = await import("../../../store/fs-probe.js");
  const transcriptsDir = opts.transcripts as string | undefined;
  if (transcriptsDir !== undefined && !isDirectory(transcriptsDir)) {
    throw usageError(`--transcripts ${transcriptsDir}: not a directory`, "name the folder holding the session transcripts (*.jsonl)");
  }
  const { planTargets } = await import("../../../domains/continuity/index.js");
  const { buildReport, checkWorkspace, createSharedMemo } = await import("../../../domains/continuity/index.js");
  const { continuityChecks } = await import("../../../domains/continuity/index.js");
  const home = { env: process.env, homeDir: os.homedir() };
  const plan = await planTargets({
    workspaces: (opts.workspace as string[] | undefined) ?? [],
    allAgents: opts.allAgents === true,
    transcriptsDir,
    // Only needed (and only resolved) when no workspace is named: --workspace works anywhere.
    defaultRoot: (opts.workspace as string[] | undefined)?.length || opts.allAgents === true ? process.cwd() : ctx.layout.root,
    cwd: process.cwd(),
    home,
  });
  const run = { clock: ctx.clock, env: home.env, homeDir: home.homeDir, checks: continuityChecks, memo: createSharedMemo() };
  const progress = plan.targets.length >= 5 ? (await import("../output/progress.js")).createProgress() : undefined;
  const reports = [];
  for (const [i, target] of plan.targets.entries()) {
    progress?.update(`continuity doctor: ${i + 1}/${plan.targets.length} ${target.root}`);
    reports.push(await checkWorkspace(target, run));
  }
  progress?.done();
  const report = buildReport(reports, plan.problems, plan.skipped);
  if (ctx.json) ctx.printJson(report);
  else {
    const { renderContinuityReport } = await import("../output/continuity-report.js");
    ctx.out(renderContinuityReport(report, ctx.style));
  }
  return report.exit_code;
}
