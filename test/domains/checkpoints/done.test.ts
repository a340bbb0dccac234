import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { completeNextAction } from "../../../src/domains/checkpoints/done-service.js";
import { runDoneWhen, userShell } from "../../../src/domains/checkpoints/verify-command.js";
import { fixedClock } from "../../../src/core/clock.js";
import type { AopError } from "../../../src/core/errors.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { readJson } from "../../helpers/tmp.js";
import { checkpointPath, checkpointWorkspace, minimalCheckpoint } from "./fixture.js";

const clock = fixedClock("2026-03-01T12:00:00.000Z");
const env = (root: string) => ({ layout: new WorkspaceLayout(root), clock });
const verify = (timeoutMs = 10_000) => ({ timeoutMs, env: process.env });
type Saved = { next_actions: unknown[]; recently_done: { at: string; action: unknown }[]; status: string };

describe("done: next_actions[0] → front of recently_done", () => {
  it("pops the first action and records when", async () => {
    const root = checkpointWorkspace({ b: minimalCheckpoint("b", { next_actions: ["one", { text: "two", done_when: "true" }], recently_done: [{ at: "2026-03-01T10:00:00.000Z", action: "zero" }] }) });
    const result = await completeNextAction(env(root), "b");
    expect(result).toMatchObject({ done: { at: "2026-03-01T12:00:00.000Z", action: "one" }, next_action: { text: "two", done_when: "true" }, remaining: 1, verify: null });
    const saved = readJson<Saved>(checkpointPath(root, "b"));
    expect(saved.next_actions).toEqual([{ text: "two", done_when: "true" }]);
    expect(saved.recently_done.map((d) => d.action)).toEqual(["one", "zero"]);
  });

  it("an action object is recorded by its text, as the reference CLI records it; older object entries stay valid", async () => {
    const older = { at: "2026-03-01T10:00:00.000Z", action: { text: "zero", done_when: "true" } };
    const root = checkpointWorkspace({ b: minimalCheckpoint("b", { protocol_version: "1.0", next_actions: [{ text: "run the tests", done_when: "npm test" }, "ship"], recently_done: [older] }) });
    const result = await completeNextAction(env(root), "b");
    expect(result.done).toEqual({ at: "2026-03-01T12:00:00.000Z", action: "run the tests" });
    const saved = readJson<Saved>(checkpointPath(root, "b"));
    expect(saved.recently_done).toEqual([{ at: "2026-03-01T12:00:00.000Z", action: "run the tests" }, older]);
  });

  it("keeps at most 10 recently_done entries, newest first", async () => {
    const old = Array.from({ length: 10 }, (_, i) => ({ at: "2026-03-01T10:00:00.000Z", action: `old-${i}` }));
    const root = checkpointWorkspace({ b: minimalCheckpoint("b", { next_actions: ["new", "later"], recently_done: old }) });
    await completeNextAction(env(root), "b");
    const saved = readJson<Saved>(checkpointPath(root, "b"));
    expect(saved.recently_done).toHaveLength(10);
    expect(saved.recently_done[0]!.action).toBe("new");
    expect(saved.recently_done[9]!.action).toBe("old-8");
  });

  it("an empty queue is checkpoint_queue_empty and changes nothing", async () => {
    const root = checkpointWorkspace({ b: minimalCheckpoint("b", { status: "complete", next_actions: [] }) });
    const before = fs.readFileSync(checkpointPath(root, "b"));
    await expect(completeNextAction(env(root), "b")).rejects.toMatchObject({ code: "checkpoint_queue_empty" });
    expect(fs.readFileSync(checkpointPath(root, "b")).equals(before)).toBe(true);
  });

  it("the last action of a skill in progress needs a new status in the same write", async () => {
    const root = checkpointWorkspace({ b: minimalCheckpoint("b") });
    const err = await completeNextAction(env(root), "b").catch((e: unknown) => e as AopError);
    expect(err).toMatchObject({ code: "checkpoint_invalid", hint: expect.stringMatching(/pass a new status \(e\.g\. --status complete\)/) });
    const result = await completeNextAction(env(root), "b", { status: "complete" });
    expect(result).toMatchObject({ next_action: null, remaining: 0 });
    expect(readJson<Saved>(checkpointPath(root, "b")).status).toBe("complete");
  });

  it("an unknown skill is checkpoint_not_found", async () => {
    await expect(completeNextAction(env(checkpointWorkspace()), "nobody")).rejects.toMatchObject({ code: "checkpoint_not_found" });
  });
});

describe("done --verify: runs done_when with the user's shell, pops only on exit 0", () => {
  it("a passing done_when pops, and its output is kept", async () => {
    const root = checkpointWorkspace({ b: minimalCheckpoint("b", { next_actions: [{ text: "build", done_when: "echo built > out.txt && echo checked" }, "next"] }) });
    const seen: string[] = [];
    const result = await completeNextAction(env(root), "b", { verify: { ...verify(), onOutput: (c) => seen.push(c.toString()) } });
    expect(result.verify).toMatchObject({ exit_code: 0, timed_out: false, output: "checked\n" });
    expect(seen.join("")).toBe("checked\n");
    expect(fs.readFileSync(`${root}/out.txt`, "utf8")).toBe("built\n"); // ran in the project folder
    expect(readJson<Saved>(checkpointPath(root, "b")).next_actions).toEqual(["next"]);
  });

  it("a failing done_when pops nothing and says how it failed", async () => {
    const root = checkpointWorkspace({ b: minimalCheckpoint("b", { next_actions: [{ text: "test", done_when: "echo 2 failing >&2; exit 3" }] }) });
    const before = fs.readFileSync(checkpointPath(root, "b"));
    const err = await completeNextAction(env(root), "b", { verify: verify() }).catch((e: unknown) => e as AopError);
    expect(err).toMatchObject({ code: "checkpoint_verify_failed", message: "done_when exited 3, so nothing was marked done: echo 2 failing >&2; exit 3", details: { exit_code: 3, timed_out: false, output: "2 failing\n" } });
    expect(fs.readFileSync(checkpointPath(root, "b")).equals(before)).toBe(true);
  });

  it("a done_when that outlives its timeout is killed, with its children, and pops nothing", async () => {
    const root = checkpointWorkspace({ b: minimalCheckpoint("b", { next_actions: [{ text: "hang", done_when: "sh -c 'echo $$ > child.pid; exec sleep 30' & wait" }] }) });
    const err = await completeNextAction(env(root), "b", { verify: verify(300) }).catch((e: unknown) => e as AopError);
    expect(err).toMatchObject({ code: "checkpoint_verify_failed", message: expect.stringMatching(/^done_when timed out/), details: { timed_out: true } });
    const child = Number(fs.readFileSync(`${root}/child.pid`, "utf8"));
    let alive = true;
    for (let i = 0; i < 50 && alive; i++) {
      try {
        process.kill(child, 0);
        await new Promise((r) => setTimeout(r, 50));
      } catch {
        alive = false;
      }
    }
    expect(alive).toBe(false); // the grandchild went with its process group
    expect(readJson<Saved>(checkpointPath(root, "b")).next_actions).toHaveLength(1);
  });

  it("an action without done_when cannot be verified", async () => {
    const root = checkpointWorkspace({ b: minimalCheckpoint("b") });
    await expect(completeNextAction(env(root), "b", { verify: verify() })).rejects.toMatchObject({ code: "checkpoint_verify_failed", message: "next_actions[0] of b has no done_when to run" });
  });

  it("runs $SHELL when it is an absolute path that exists, else /bin/sh", async () => {
    expect(userShell({ SHELL: "/bin/sh" })).toBe("/bin/sh");
    expect(userShell({ SHELL: "/no/such/shell" })).toBe("/bin/sh");
    expect(userShell({ SHELL: "zsh" })).toBe("/bin/sh");
    expect(userShell({})).toBe("/bin/sh");
    const result = await runDoneWhen({ command: "echo $0", cwd: "/", timeoutMs: 5_000, env: { SHELL: "/bin/sh", PATH: process.env.PATH } });
    expect(result.output.trim()).toBe("/bin/sh");
  });
});
