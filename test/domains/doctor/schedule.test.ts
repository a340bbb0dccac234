// aop schedule's jobs (docs/schedule.md): a valid crontab line, a systemd timer on the same time, and CI
// YAML that parses, runs `aop doctor --strict --json` and keeps the report even when the doctor fails.
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { buildSchedule, shellWord, type ScheduleInput } from "../../../src/domains/doctor/schedule.js";

const input = (over: Partial<ScheduleInput> = {}): ScheduleInput => ({
  every: "daily", hour: 6, minute: 30, workspace: "/srv/shop api", localCommand: "/usr/bin/node /opt/aop/bin/aop.js", ciCommand: "npx --yes --package aop-continuity@0.2.0 aop", report: "aop-doctor.json", ...over,
});

/** crontab(5): five time fields, each `*`, a number in range, or a list/range/step of them; then the command. */
function cronFields(line: string): { fields: string[]; command: string } {
  const parts = line.split(" ");
  const fields = parts.slice(0, 5);
  const ranges: [number, number][] = [[0, 59], [0, 23], [1, 31], [1, 12], [0, 7]];
  fields.forEach((field, i) => {
    for (const item of field.split(",")) {
      const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
      expect(m, `field ${i + 1} '${field}'`).not.toBeNull();
      for (const n of [m![2], m![3]].filter((x) => x !== undefined).map(Number)) expect(n >= ranges[i]![0] && n <= ranges[i]![1], `field ${i + 1} value ${n}`).toBe(true);
    }
  });
  return { fields, command: parts.slice(5).join(" ") };
}

describe("buildSchedule", () => {
  it.each([
    ["hourly", "30 * * * *", "*-*-* *:30:00"],
    ["daily", "30 6 * * *", "*-*-* 06:30:00"],
    ["weekly", "30 6 * * 1", "Mon *-*-* 06:30:00"],
  ] as const)("%s: cron %s, OnCalendar %s, the same time everywhere", (every, cron, onCalendar) => {
    const s = buildSchedule(input({ every }));
    expect(s.cron).toBe(cron);
    expect(s.on_calendar).toBe(onCalendar);
    const { fields, command } = cronFields(s.crontab);
    expect(fields.join(" ")).toBe(cron);
    expect(command).toBe("cd '/srv/shop api' && /usr/bin/node /opt/aop/bin/aop.js doctor --strict --json > aop-doctor.json 2>> aop-doctor.log");
    expect(s.systemd.timer).toContain(`\nOnCalendar=${onCalendar}\n`);
    expect(YAML.parse(s.github_actions).on.schedule).toEqual([{ cron }]);
    expect(s.gitlab_ci).toContain(`"${cron}"`);
  });

  it("the GitHub Actions workflow runs the strict doctor and uploads the report even when it fails", () => {
    const wf = YAML.parse(buildSchedule(input()).github_actions);
    const steps = wf.jobs.doctor.steps as Record<string, unknown>[];
    expect(steps.find((s) => typeof s.run === "string")!.run).toBe("npx --yes --package aop-continuity@0.2.0 aop doctor --strict --json > aop-doctor.json");
    expect(steps.at(-1)).toMatchObject({ if: "always()", uses: "actions/upload-artifact@v4", with: { path: "aop-doctor.json" } });
    expect(wf.on).toHaveProperty("workflow_dispatch");
  });

  it("the GitLab CI job runs on schedules and keeps the report always", () => {
    const job = YAML.parse(buildSchedule(input({ report: ".aop/doctor.json" })).gitlab_ci)["aop-doctor"];
    expect(job.script).toEqual(["npx --yes --package aop-continuity@0.2.0 aop doctor --strict --json > .aop/doctor.json"]);
    expect(job.artifacts).toMatchObject({ when: "always", paths: [".aop/doctor.json"] });
    expect(job.rules[0].if).toContain('$CI_PIPELINE_SOURCE == "schedule"');
  });

  it("systemd runs it in the workspace, and findings (exit 1, 2) are not a failed unit", () => {
    const { service } = buildSchedule(input()).systemd;
    expect(service).toContain("\nWorkingDirectory=/srv/shop api\n");
    expect(service).toContain("\nExecStart=/bin/sh -c '/usr/bin/node /opt/aop/bin/aop.js doctor --strict --json > aop-doctor.json'\n");
    expect(service).toContain("\nSuccessExitStatus=1 2\n");
  });

  it("a % in a crontab command is escaped (cron ends the command at a bare %)", () => {
    const { command } = cronFields(buildSchedule(input({ workspace: "/srv/100%" })).crontab);
    expect(command.startsWith("cd /srv/100\\% && ")).toBe(true);
  });

  it("shellWord quotes what the shell would split or expand", () => {
    expect(shellWord("/a/b-c.json")).toBe("/a/b-c.json");
    expect(shellWord("it's $HOME")).toBe(`'it'\\''s $HOME'`);
  });
});

describe("the OpenClaw cron job", () => {
  /** The words a POSIX shell makes of the printed line (single quotes only, as shellWord writes them). */
  const words = (line: string) => [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!));

  it("a command job on the same cron time, running the doctor in the workspace into the report, not delivered", () => {
    const s = buildSchedule(input({ every: "weekly" }));
    const w = words(s.openclaw);
    expect(w.slice(0, 4)).toEqual(["openclaw", "cron", "add", "aop-doctor"]);
    const flag = (name: string) => w[w.indexOf(name) + 1];
    expect(flag("--cron")).toBe(s.cron);
    expect(flag("--command")).toBe("/usr/bin/node /opt/aop/bin/aop.js doctor --strict --json > aop-doctor.json");
    expect(flag("--command-cwd")).toBe("/srv/shop api");
    expect(w).toContain("--no-deliver");
    expect(w).toContain("--exact");
  });

  it("one declaration key per workspace: the same path the same key, another path another", () => {
    const key = (workspace: string) => words(buildSchedule(input({ workspace })).openclaw).find((x) => x.startsWith("aop-doctor-"))!;
    expect(key("/srv/a")).toMatch(/^aop-doctor-[0-9a-f]{12}$/);
    expect(key("/srv/a")).toBe(key("/srv/a"));
    expect(key("/srv/a")).not.toBe(key("/srv/b"));
  });
});
