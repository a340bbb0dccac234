import fs from "node:fs";
import { describe, expect, it } from "vitest";
import "../../helpers/workers-env.js";
import { applyAssignments, parseAssignments } from "../../../src/domains/checkpoints/assignments.js";
import { resetCheckpoint, updateCheckpoint, initCheckpoints } from "../../../src/domains/checkpoints/write-service.js";
import { fixedClock } from "../../../src/core/clock.js";
import { AopError } from "../../../src/core/errors.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { runWorkers, startWorker, waitForOutput } from "../../helpers/processes.js";
import { readJson } from "../../helpers/tmp.js";
import { runCli } from "../../helpers/cli.js";
import { checkpointPath, checkpointWorkspace, exampleCheckpoint, minimalCheckpoint } from "./fixture.js";

const clock = fixedClock("2026-03-01T12:00:00.000Z");
const env = (root: string) => ({ layout: new WorkspaceLayout(root), clock });
const update = (root: string, skill: string, ...flags: string[]) => updateCheckpoint(env(root), skill, (doc) => applyAssignments(doc, parseAssignments(flags)));

describe("update: read → merge → validate → atomic write", () => {
  it("=, += and :json= on nested paths, and updated_at restamped", async () => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint() });
    const result = await update(root, "architect", "--step=error-model", "--progress_table[2].status=complete", "--context_primer.key_decisions+=Errors follow RFC 9457", '--blockers[0]:json={"id":"queue-choice","description":"Queue: SQS or RabbitMQ","needs":"user_decision"}', "--skill_state.contract_sections_done:json=[]");
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the file was just validated; the test reads it loosely
    const saved = readJson<Record<string, any>>(checkpointPath(root, "architect"));
    expect(saved.step).toBe("error-model");
    expect(saved.progress_table[2].status).toBe("complete");
    expect(saved.context_primer.key_decisions.at(-1)).toBe("Errors follow RFC 9457");
    expect(saved.blockers[0]).toEqual({ id: "queue-choice", description: "Queue: SQS or RabbitMQ", needs: "user_decision" });
    expect(saved.skill_state.contract_sections_done).toEqual([]);
    expect(saved.updated_at).toBe("2026-03-01T12:00:00.000Z");
    expect(saved.created_at).toBe("2026-02-26T08:15:00.000Z");
    expect(result).toMatchObject({ skill: "architect", created: false, warnings: [] });
  });

  it("refusing an invalid result leaves the file byte-identical", async () => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint() });
    const before = fs.readFileSync(checkpointPath(root, "architect"));
    const statBefore = fs.statSync(checkpointPath(root, "architect"));
    for (const flags of [["--status=paused"], ["--next_actions:json=[]"], ["--skill=other"], ["--created_at=yesterday"], ["--progress_table[0].status=finished", "--step=x"]]) {
      const err = (await update(root, "architect", ...flags).then(() => null, (e: unknown) => e)) as AopError;
      expect(err, flags.join(" ")).toBeInstanceOf(AopError);
      expect(err.code).toBe("checkpoint_invalid");
      expect(err.message).toMatch(/^refused to update architect: the result would be invalid: architect\.checkpoint\.json /);
      expect(err.details.problems).not.toHaveLength(0);
    }
    expect(fs.readFileSync(checkpointPath(root, "architect")).equals(before)).toBe(true);
    expect(fs.statSync(checkpointPath(root, "architect")).mtimeMs).toBe(statBefore.mtimeMs);
    expect(fs.readdirSync(`${root}/.checkpoints`)).toEqual(["architect.checkpoint.json"]);
  });

  it("a missing file is scaffolded, and must still end up valid", async () => {
    const root = checkpointWorkspace();
    await expect(update(root, "deployer", "--phase=build")).rejects.toMatchObject({ code: "checkpoint_invalid", message: expect.stringMatching(/next_actions must hold at least one action/) });
    expect(fs.existsSync(checkpointPath(root, "deployer"))).toBe(false);
    const result = await update(root, "deployer", "--phase=build", "--next_actions+=Write the Dockerfile");
    expect(result.created).toBe(true);
    const saved = readJson<Record<string, unknown>>(checkpointPath(root, "deployer"));
    expect(saved).toMatchObject({ protocol_version: "1.0", skill: "deployer", project_dir: root, status: "in_progress", phase: "build", next_actions: ["Write the Dockerfile"], created_at: "2026-03-01T12:00:00.000Z" });
    expect(result.warnings.map((w) => w.path)).toEqual(["progress_table"]);
  });

  it("an update can repair a file with errors; a file that is not JSON is refused", async () => {
    const root = checkpointWorkspace({ a: minimalCheckpoint("a", { status: "paused" }), b: "{ not json" });
    await update(root, "a", "--status=blocked");
    expect(readJson<Record<string, unknown>>(checkpointPath(root, "a")).status).toBe("blocked");
    await expect(update(root, "b", "--step=x")).rejects.toMatchObject({ code: "checkpoint_invalid", message: expect.stringMatching(/^cannot update b: b\.checkpoint\.json is not valid JSON/) });
    expect(fs.readFileSync(checkpointPath(root, "b"), "utf8")).toBe("{ not json");
  });

  it("a skill name with / never reaches the file system", async () => {
    const root = checkpointWorkspace();
    await expect(update(root, "../escape", "--step=x")).rejects.toMatchObject({ code: "invalid_argument" });
  });

  it("two processes updating different fields concurrently: both fields present, every write kept", async () => {
    const root = checkpointWorkspace({ builder: minimalCheckpoint("builder") });
    const results = await runWorkers("checkpoint-updater.mjs", [
      [root, "builder", "alpha", "25"],
      [root, "builder", "beta", "25"],
    ]);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const saved = readJson<{ skill_state: Record<string, number> }>(checkpointPath(root, "builder"));
    expect(saved.skill_state).toEqual({ alpha: 25, beta: 25 });
    expect(fs.existsSync(checkpointPath(root, "builder") + ".lock")).toBe(false);
  }, 60_000);

  it("a writer killed with SIGKILL mid-run leaves a valid file and a lock the next writer reclaims", async () => {
    const root = checkpointWorkspace({ builder: minimalCheckpoint("builder") });
    const worker = startWorker("checkpoint-updater.mjs", [root, "builder", "alpha", "100000"], { AOP_DIST_URL: process.env.AOP_DIST_URL! });
    await waitForOutput(worker.child, "tick\ntick\ntick");
    worker.child.kill("SIGKILL");
    await worker.done;
    const saved = readJson<{ skill_state: { alpha: number }; progress_summary: string }>(checkpointPath(root, "builder"));
    expect(saved.progress_summary).toBe(`alpha wrote ${saved.skill_state.alpha}`);
    await update(root, "builder", "--step=after-crash");
    expect(readJson<{ step: string }>(checkpointPath(root, "builder")).step).toBe("after-crash");
  }, 60_000);
});

describe("reset and init", () => {
  it("reset moves the file into history/ and never deletes it", async () => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint() });
    const before = fs.readFileSync(checkpointPath(root, "architect"), "utf8");
    const first = await resetCheckpoint(env(root), "architect");
    expect(first.moved_to).toBe(".checkpoints/history/architect.20260301T120000.000Z.checkpoint.json");
    expect(fs.readFileSync(`${root}/${first.moved_to}`, "utf8")).toBe(before);
    expect(fs.existsSync(checkpointPath(root, "architect"))).toBe(false);
    fs.writeFileSync(checkpointPath(root, "architect"), before);
    const second = await resetCheckpoint(env(root), "architect");
    expect(second.moved_to).toBe(".checkpoints/history/architect.20260301T120000.000Z-1.checkpoint.json");
    await expect(resetCheckpoint(env(root), "architect")).rejects.toMatchObject({ code: "checkpoint_not_found" });
  });

  it("init creates the folder and its .gitignore once", () => {
    const root = checkpointWorkspace();
    fs.rmSync(`${root}/.checkpoints`, { recursive: true });
    expect(initCheckpoints(env(root))).toMatchObject({ created: [".checkpoints/", ".checkpoints/.gitignore"], kept: [] });
    expect(initCheckpoints(env(root))).toMatchObject({ created: [], kept: [".checkpoints/", ".checkpoints/.gitignore"] });
    expect(fs.readFileSync(`${root}/.checkpoints/.gitignore`, "utf8")).toMatch(/\*\.checkpoint\.json\.lock/);
  });
});

describe("update: the size limit every checkpoint reader enforces", () => {
  it("refuses a result over 1 MB with payload_too_large and leaves the file byte-identical", async () => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint() });
    const file = checkpointPath(root, "architect");
    await update(root, "architect", `--skill_state.notes=${"a".repeat(700_000)}`);
    const before = fs.readFileSync(file);
    const err = (await update(root, "architect", `--skill_state.more=${"b".repeat(400_000)}`).then(() => null, (e: unknown) => e)) as AopError;
    expect(err).toBeInstanceOf(AopError);
    expect(err.code).toBe("payload_too_large");
    expect(err.message).toMatch(/refused to update architect: the result would be \d+ bytes, over the 1 MB limit every checkpoint command enforces; nothing was written/);
    expect(err.details).toMatchObject({ skill: "architect", limit: 1024 * 1024 });
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it("through `aop call checkpoint.update`: the second of two 700 KB patches is refused and every command still reads the file", () => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint() });
    const patch = (key: string) => {
      const file = `${root}/patch-${key}.json`;
      fs.writeFileSync(file, JSON.stringify({ skill: "architect", patch: { skill_state: { [key]: "x".repeat(700_000) } }, as_skill: "architect" }));
      return `@${file}`;
    };
    const first = runCli(["call", "checkpoint.update", "--args", patch("one"), "--root", root, "--json"]);
    expect(first.code, first.stdout.slice(0, 300)).toBe(0);
    const before = fs.readFileSync(checkpointPath(root, "architect"));
    const second = runCli(["call", "checkpoint.update", "--args", patch("two"), "--root", root, "--json"]);
    expect(second.code).toBe(1);
    expect(JSON.parse(second.stdout)).toMatchObject({ ok: false, error: { code: "payload_too_large" } });
    expect(fs.readFileSync(checkpointPath(root, "architect")).equals(before)).toBe(true);
    expect(runCli(["checkpoint", "validate", "--dir", `${root}/.checkpoints`]).code).toBe(0);
  });
});
