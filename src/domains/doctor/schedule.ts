// `aop schedule`: ready-to-install jobs that run `aop doctor --strict --json` on a schedule and keep the
// report (docs/schedule.md) — a crontab line, a systemd service and timer, a GitHub Actions workflow and
// a GitLab CI job, and an OpenClaw cron job. Pure: the caller supplies the workspace, the command and the time.
import { sha256Hex } from "../../core/hash.js";

export const SCHEDULE_EVERY = ["hourly", "daily", "weekly"] as const;
type ScheduleEvery = (typeof SCHEDULE_EVERY)[number];

export interface ScheduleInput {
  every: ScheduleEvery;
  /** Hour and minute (UTC in CI, local time for cron and systemd); for `hourly` only the minute counts. */
  hour: number;
  minute: number;
  /** Absolute workspace folder (cron and systemd run there). */
  workspace: string;
  /** How cron and systemd start aop (an absolute command: they run with a minimal PATH). */
  localCommand: string;
  /** How a CI job starts aop (it installs it first). */
  ciCommand: string;
  /** The report file, relative to the workspace. */
  report: string;
}

export interface Schedule {
  cron: string;
  on_calendar: string;
  crontab: string;
  systemd: { service: string; timer: string };
  github_actions: string;
  gitlab_ci: string;
  /** `openclaw cron add …`: a command job in OpenClaw's Gateway scheduler (docs/schedule.md). */
  openclaw: string;
  report: string;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A word for the shell: kept as is when it is safe, else single-quoted. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function cronOf(s: ScheduleInput): string {
  if (s.every === "hourly") return `${s.minute} * * * *`;
  return `${s.minute} ${s.hour} * * ${s.every === "weekly" ? "1" : "*"}`;
}

function onCalendarOf(s: ScheduleInput): string {
  if (s.every === "hourly") return `*-*-* *:${pad(s.minute)}:00`;
  return `${s.every === "weekly" ? "Mon " : ""}*-*-* ${pad(s.hour)}:${pad(s.minute)}:00`;
}

const DOCTOR_ARGS = "doctor --strict --json";

/** One OpenClaw job per workspace: the key names the workspace (a hash of its path), so two projects on one Gateway keep two jobs. */
function openclawDeclarationKey(workspace: string): string {
  return `aop-doctor-${sha256Hex(workspace).slice(0, 12)}`;
}

export function buildSchedule(s: ScheduleInput): Schedule {
  const cron = cronOf(s);
  const on_calendar = onCalendarOf(s);
  const ws = shellWord(s.workspace);
  const report = shellWord(s.report);
  const run = `${s.localCommand} ${DOCTOR_ARGS} > ${report}`;
  // In a crontab an unescaped `%` ends the command (crontab(5)).
  const crontab = `${cron} cd ${ws} && ${run} 2>> ${shellWord(s.report.replace(/\.json$/, "") + ".log")}`.replace(/%/g, "\\%");
  const service = [
    "[Unit]",
    "Description=aop doctor (continuity and checkpoint checks)",
    "",
    "[Service]",
    "Type=oneshot",
    `WorkingDirectory=${s.workspace}`,
    // systemd does not run a shell: sh -c keeps the redirection.
    `ExecStart=/bin/sh -c ${shellWord(run)}`,
    // --strict exits 1 or 2 on findings: the report is the result, not a failed unit.
    "SuccessExitStatus=1 2",
    "",
  ].join("\n");
  const timer = [
    "[Unit]",
    "Description=Run aop doctor on a schedule",
    "",
    "[Timer]",
    `OnCalendar=${on_calendar}`,
    "Persistent=true",
    "",
    "[Install]",
    "WantedBy=timers.target",
    "",
  ].join("\n");
  const github_actions = [
    "name: aop doctor",
    "on:",
    "  schedule:",
    `    - cron: "${cron}"`,
    "  workflow_dispatch: {}",
    "jobs:",
    "  doctor:",
    "    runs-on: ubuntu-latest",
    "    steps:",
    "      - uses: actions/checkout@v4",
    "      - uses: actions/setup-node@v4",
    "        with:",
    "          node-version: 22",
    "      - name: aop doctor --strict",
    `        run: ${s.ciCommand} ${DOCTOR_ARGS} > ${report}`,
    "      - name: keep the report",
    "        if: always()",
    "        uses: actions/upload-artifact@v4",
    "        with:",
    "          name: aop-doctor-report",
    `          path: ${s.report}`,
    "",
  ].join("\n");
  const gitlab_ci = [
    "# Runs in pipelines started by a schedule (CI/CD > Schedules, interval pattern",
    `# "${cron}") or by hand.`,
    "aop-doctor:",
    "  image: node:22",
    "  rules:",
    '    - if: $CI_PIPELINE_SOURCE == "schedule" || $CI_PIPELINE_SOURCE == "web"',
    "  script:",
    `    - ${s.ciCommand} ${DOCTOR_ARGS} > ${report}`,
    "  artifacts:",
    "    when: always",
    "    expire_in: 30 days",
    "    paths:",
    `      - ${s.report}`,
    "",
  ].join("\n");
  // OpenClaw's scheduler keeps jobs in its Gateway's state, not in a file: a command job (run as
  // `sh -lc`, no model turn) whose declaration key makes a second add update the job instead of adding one.
  const openclaw = [
    `openclaw cron add aop-doctor --cron ${shellWord(cron)} --exact`,
    `--command ${shellWord(run)} --command-cwd ${ws}`,
    `--declaration-key ${openclawDeclarationKey(s.workspace)} --no-deliver`,
    `--description ${shellWord(`aop doctor --strict in ${s.workspace}; report: ${s.report}`)}`,
  ].join(" ");
  return { cron, on_calendar, crontab, systemd: { service, timer }, github_actions, gitlab_ci, openclaw, report: s.report };
}
