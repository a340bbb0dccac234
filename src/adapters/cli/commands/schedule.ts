// aop schedule: prints ready-to-install jobs that run `aop doctor --strict --json` on a schedule and keep
// the report — a crontab line, a systemd service and timer, a GitHub Actions workflow, a GitLab CI job,
// an OpenClaw cron job (docs/schedule.md). Prints only; installs nothing.
import path from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../program/context.js";
import { addFlags, type FlagSpec, type FlagValues } from "../flags/flags.js";
import { examples, runCommand, usageError } from "../program/run-command.js";
import { readPackageVersion } from "../program/version.js";

const SCHEDULE_FLAGS = [
  { flag: "every", value: "<period>", description: "hourly | daily | weekly (Mondays) (default: daily)" },
  { flag: "at", value: "<HH:MM>", description: "time of day for daily and weekly, minute past the hour for hourly (default: 06:00; UTC in CI)" },
  { flag: "report", value: "<file>", description: "where the JSON report is kept, relative to the workspace (default: aop-doctor.json)" },
] as const satisfies readonly FlagSpec[];

export function register(program: Command, summary: string): void {
  addFlags(program.command("schedule").description(summary), SCHEDULE_FLAGS)
    .addHelpText(
      "after",
      "\nPrints a crontab line, a systemd service and timer, a GitHub Actions workflow, a GitLab CI job and an OpenClaw cron job;\n" +
        "each runs `aop doctor --strict --json` in the workspace and keeps the report, also when it has findings.\n" +
        examples("aop schedule", "aop schedule --every hourly --at 15", "aop schedule --every weekly --at 07:30 --json", "(crontab -l; aop schedule --json | jq -r .crontab) | crontab -"),
    )
    .action(runCommand(schedule));
}

function parseAt(at: string | undefined, hourly: boolean): { hour: number; minute: number } {
  if (at === undefined) return { hour: 6, minute: 0 };
  const m = hourly ? /^(?:(\d{1,2}):)?(\d{1,2})$/.exec(at) : /^(\d{1,2}):(\d{2})$/.exec(at);
  const hour = m?.[1] === undefined ? 0 : Number(m[1]);
  const minute = Number(m?.[2]);
  if (!m || hour > 23 || minute > 59) throw usageError(`--at must be ${hourly ? "a minute (0-59) or HH:MM" : "HH:MM (00:00 to 23:59)"} (got '${at}')`, hourly ? "e.g. --at 15" : "e.g. --at 06:30");
  return { hour, minute };
}

async function schedule(ctx: CliContext, opts: FlagValues<typeof SCHEDULE_FLAGS>): Promise<number> {
  const { SCHEDULE_EVERY, buildSchedule, shellWord } = await import("../../../domains/doctor/index.js");
  const every = (opts.every ?? "daily") as (typeof SCHEDULE_EVERY)[number];
  if (!SCHEDULE_EVERY.includes(every)) throw usageError(`--every must be one of ${SCHEDULE_EVERY.join(", ")} (got '${opts.every}')`);
  const { hour, minute } = parseAt(opts.at, every === "hourly");
  const report = opts.report ?? "aop-doctor.json";
  if (path.isAbsolute(report) || report.split(/[\\/]/).includes("..") || report.trim() === "") throw usageError(`--report must be a file inside the workspace (got '${report}')`, "e.g. --report .aop/doctor-report.json");
  // cron and systemd run with a minimal PATH: this very node and the bin that was run, by absolute path.
  const bin = path.resolve(process.argv[1] ?? "aop");
  const localCommand = `${shellWord(process.execPath)} ${shellWord(bin)}`;
  const ciCommand = `npx --yes --package aop-continuity@${readPackageVersion()} aop`;
  const s = buildSchedule({ every, hour, minute, workspace: ctx.layout.root, localCommand, ciCommand, report });
  if (ctx.json) {
    ctx.printJson(s);
    return 0;
  }
  const b = ctx.style.bold;
  ctx.out(`${b("# crontab")} (crontab -e; runs in ${ctx.layout.root})`);
  ctx.out(s.crontab);
  ctx.out("");
  ctx.out(`${b("# systemd")}: ~/.config/systemd/user/aop-doctor.service`);
  ctx.out(s.systemd.service);
  ctx.out("");
  ctx.out(`${b("# systemd")}: ~/.config/systemd/user/aop-doctor.timer, then: systemctl --user enable --now aop-doctor.timer`);
  ctx.out(s.systemd.timer);
  ctx.out("");
  ctx.out(`${b("# GitHub Actions")}: .github/workflows/aop-doctor.yml`);
  ctx.out(s.github_actions);
  ctx.out("");
  ctx.out(`${b("# GitLab CI")}: add to .gitlab-ci.yml, then create a pipeline schedule "${s.cron}"`);
  ctx.out(s.gitlab_ci.trimEnd());
  ctx.out("");
  ctx.out(`${b("# OpenClaw")}: run with its Gateway running (the job lives in the Gateway's scheduler); \`aop integrate openclaw\` prints it too`);
  ctx.out(s.openclaw);
  return 0;
}
