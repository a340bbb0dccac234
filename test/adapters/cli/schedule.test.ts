// aop schedule end to end: --json, --help, bad flags, and the crontab and systemd commands it prints
// actually run the doctor in the workspace and leave a JSON report.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { tempWorkspace } from "../../helpers/tmp.js";

interface ScheduleJson {
  cron: string;
  crontab: string;
  systemd: { service: string; timer: string };
  github_actions: string;
  gitlab_ci: string;
  report: string;
}

describe("aop schedule", () => {
  it("prints the four jobs; the crontab command runs the strict doctor and keeps its report", () => {
    const root = tempWorkspace();
    const r = runCli(["schedule", "--json", "--every", "hourly", "--at", "15", "--report", "reports/doctor.json"], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as ScheduleJson;
    expect(s.cron).toBe("15 * * * *");
    fs.mkdirSync(path.join(root, "reports"));
    // What cron would run: the line after its five time fields (no % to unescape here).
    const command = s.crontab.split(" ").slice(5).join(" ");
    const run = spawnSync("/bin/sh", ["-c", command], { cwd: "/", encoding: "utf8", env: { PATH: "/usr/bin:/bin" } });
    expect([0, 1, 2]).toContain(run.status);
    const report = JSON.parse(fs.readFileSync(path.join(root, "reports", "doctor.json"), "utf8")) as { summary: unknown };
    expect(report).toHaveProperty("summary");
  });

  it("the systemd ExecStart runs there too", () => {
    const root = tempWorkspace();
    const s = JSON.parse(runCli(["schedule", "--json"], { cwd: root }).stdout) as ScheduleJson;
    const exec = /^ExecStart=\/bin\/sh -c '(.*)'$/m.exec(s.systemd.service)![1]!;
    const run = spawnSync("/bin/sh", ["-c", exec], { cwd: root, encoding: "utf8", env: { PATH: "/usr/bin:/bin" } });
    expect([0, 1, 2]).toContain(run.status);
    expect(JSON.parse(fs.readFileSync(path.join(root, "aop-doctor.json"), "utf8"))).toHaveProperty("summary");
  });

  it("the human output names where each job goes", () => {
    const r = runCli(["schedule", "--every", "weekly", "--at", "07:30"], { cwd: tempWorkspace() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# crontab .*\n30 7 \* \* 1 cd /);
    expect(r.stdout).toContain("OnCalendar=Mon *-*-* 07:30:00");
    expect(r.stdout).toContain("# GitHub Actions: .github/workflows/aop-doctor.yml");
    expect(r.stdout).toContain('# GitLab CI: add to .gitlab-ci.yml, then create a pipeline schedule "30 7 * * 1"');
    expect(r.stdout).toMatch(/# OpenClaw: .*\nopenclaw cron add aop-doctor --cron '30 7 \* \* 1' /);
  });

  it("the OpenClaw job's command, run as OpenClaw runs a command job (sh -lc in --command-cwd), leaves the report", () => {
    const root = tempWorkspace();
    const s = JSON.parse(runCli(["schedule", "--json"], { cwd: root }).stdout) as ScheduleJson & { openclaw: string };
    const shell = /--command '((?:[^']|'\\'')*)'/.exec(s.openclaw)![1]!.replace(/'\\''/g, "'");
    const cwd = /--command-cwd (\S+)/.exec(s.openclaw)![1]!;
    expect(cwd).toBe(root);
    const run = spawnSync("/bin/sh", ["-lc", shell], { cwd, encoding: "utf8", env: { PATH: "/usr/bin:/bin", HOME: root } });
    expect([0, 1, 2]).toContain(run.status);
    expect(JSON.parse(fs.readFileSync(path.join(root, "aop-doctor.json"), "utf8"))).toHaveProperty("summary");
  });

  it.each([
    [["--every", "monthly"], /--every must be one of hourly, daily, weekly \(got 'monthly'\)/],
    [["--at", "25:00"], /--at must be HH:MM/],
    [["--every", "hourly", "--at", "75"], /--at must be a minute/],
    [["--report", "../out.json"], /--report must be a file inside the workspace/],
  ])("%j is a usage error (exit 2)", (args, message) => {
    const r = runCli(["schedule", ...args], { cwd: tempWorkspace() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it("--help shows an example", () => {
    const r = runCli(["schedule", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("$ aop schedule --every weekly --at 07:30 --json");
  });
});
