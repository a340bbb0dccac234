// The differential run against the Checkpoint Protocol's reference CLI, replayed from its stored
// fixtures (scripts/parity/checkpoint-parity.mjs records them: each crafted project with the verdicts
// the reference gave it, the clock pinned). aop must agree on every project — validate's exit codes and
// error/warning counts per file, the skill `next` chooses, what `status` lists and flags, what `done`
// writes — except the deviations below, each documented in docs/checkpoints.md with its reason.
// With CHECKPOINT_REFERENCE=/path/to/checkpoint.mjs the stored verdicts are re-checked against the
// reference itself.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURE, aopVerdicts, differences, materialize, pool, referenceVerdicts, type CheckpointCase, type CheckpointVerdict } from "../../../scripts/parity/checkpoint-parity.mjs";
import { fixedClock } from "../../../src/core/clock.js";
import { nextAction } from "../../../src/domains/checkpoints/orientation-service.js";
import { scanFolder } from "../../../src/domains/checkpoints/read-service.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { runCliAsync } from "../../helpers/cli.js";
import { CHECKPOINT_BIN, REPO_ROOT } from "../../helpers/paths.js";

const stored = JSON.parse(fs.readFileSync(FIXTURE, "utf8")) as { now: string; cases: CheckpointCase[] };

const FALSY = "a field the protocol requires must hold a real value (the reference's truthiness test lets false and 0 pass)";
const IMPOSSIBLE = "a timestamp must name a real instant (the reference checks only its pattern)";
const ONE_PER_PATH = "one problem per field: an in-progress next_actions that is a string is one error, not two";
const NOT_AN_OBJECT = "a file that is not a JSON object is one error and is never ranked (the reference reports each required field and ranks it as skill 'undefined')";
const UNPARSEABLE_LISTED = "status lists a file that does not parse among the invalid files (the reference leaves it out silently)";

/** Case → the aspects on which aop deliberately differs, and why. */
const DEVIATIONS: Record<string, { aspects: string[]; why: string }> = {
  "version 0": { aspects: ["validate"], why: FALSY },
  "version false": { aspects: ["validate"], why: FALSY },
  "status false": { aspects: ["validate"], why: FALSY },
  "timestamp 0": { aspects: ["validate"], why: FALSY },
  "February 30th": { aspects: ["validate"], why: IMPOSSIBLE },
  "month 13": { aspects: ["validate"], why: IMPOSSIBLE },
  "next_actions a string": { aspects: ["validate"], why: ONE_PER_PATH },
  "a top-level array": { aspects: ["validate", "next"], why: NOT_AN_OBJECT },
  "invalid JSON": { aspects: ["status"], why: UNPARSEABLE_LISTED },
  "next: a file that is not JSON is skipped": { aspects: ["status"], why: UNPARSEABLE_LISTED },
};

/** status and done go through the CLI (their logic is the command's); single-file validate rows only need validate and next. */
const throughCli = (c: CheckpointCase) => /^(next|status|done):/.test(c.name) || Object.keys(c.files).length !== 1 || c.reference.status.listed !== 1;

async function aopVerdict(c: CheckpointCase): Promise<CheckpointVerdict> {
  const root = materialize(c.files);
  const env = { layout: new WorkspaceLayout(root), clock: fixedClock(stored.now) };
  const scan = await scanFolder(env);
  const files = Object.fromEntries(scan.files.map((f) => [f.file, { errors: f.errors.length, warnings: f.warnings.length }]));
  const fails = (strict: boolean) => (scan.files.some((f) => f.errors.length > 0 || (strict && f.warnings.length > 0)) ? 1 : 0);
  const { pick } = await nextAction(env);
  const verdict: CheckpointVerdict = { validate: { exit: fails(false), strict_exit: fails(true), files }, next: { skill: pick ? String(pick.skill) : null }, status: c.reference.status };
  if (throughCli(c)) {
    const cli = (...args: string[]) => runCliAsync([...args, "--json", "--dir", `${root}/.checkpoints`], { bin: CHECKPOINT_BIN, cwd: root, env: { AOP_NOW: stored.now, AOP_ROOT: root } });
    const st = JSON.parse((await cli("status")).stdout) as { checkpoints: { skill: unknown; stale: boolean }[]; invalid: unknown[]; decisions: { skill: unknown }[] };
    verdict.status = { listed: st.checkpoints.length + st.invalid.length, decisions: st.decisions.map((d) => String(d.skill)).sort(), stale: st.checkpoints.filter((r) => r.stale).map((r) => String(r.skill)).sort() };
    if (c.done) {
      const done = await cli("done", c.done);
      let after: { next_actions?: unknown; recently_done?: { action: unknown }[] } | null;
      try {
        after = JSON.parse(fs.readFileSync(`${root}/.checkpoints/${c.done}.checkpoint.json`, "utf8"));
      } catch {
        after = null; // no file for that skill
      }
      verdict.done = {
        exit: done.code === 0 ? 0 : 1,
        next_actions: Array.isArray(after?.next_actions) ? after.next_actions.length : null,
        recently_done: Array.isArray(after?.recently_done) ? after.recently_done.length : null,
        done_action: Array.isArray(after?.recently_done) && after.recently_done[0] !== undefined ? after.recently_done[0].action : null,
      };
    }
  }
  fs.rmSync(root, { recursive: true, force: true });
  return verdict;
}

describe("aop agrees with the reference CLI's stored verdicts on every crafted project, but for the documented deviations", () => {
  const results = new Map<string, string[]>();
  const ready = pool(stored.cases, 3, async (c) => results.set(c.name, differences(c.reference, await aopVerdict(c))));

  it("covers the rules: validate, next, status and done, on over a hundred projects", () => {
    expect(stored.cases.length).toBeGreaterThan(100);
    expect(stored.cases.filter((c) => c.done).length).toBeGreaterThanOrEqual(10);
    expect(new Set(stored.cases.map((c) => c.reference.next.skill)).size).toBeGreaterThan(3);
    expect(stored.cases.some((c) => c.reference.status.stale.length > 1 && c.reference.status.decisions.length > 0) || stored.cases.some((c) => c.reference.status.decisions.length > 1)).toBe(true);
  });

  it.each(stored.cases.map((c) => [c.name, c] as const))("%s", async (name) => {
    await ready;
    const aspects = [...new Set(results.get(name)!.map((line) => line.split(/[.:]/, 1)[0]!))].sort();
    expect({ aspects, diff: aspects.length > 0 ? results.get(name) : [] }).toEqual({ aspects: DEVIATIONS[name]?.aspects.slice().sort() ?? [], diff: DEVIATIONS[name] ? results.get(name) : [] });
  }, 120_000);

  afterAll(async () => {
    await ready;
  });
});

// The stored verdicts checked against the reference itself, when a copy is at hand (it is not an npm
// package, and its code is not ours to commit): CHECKPOINT_REFERENCE=/path/to/checkpoint.mjs.
const REFERENCE = process.env.CHECKPOINT_REFERENCE;
describe.skipIf(!REFERENCE)("the stored verdicts are what the reference CLI says (CHECKPOINT_REFERENCE)", () => {
  it.each(stored.cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    expect(referenceVerdicts(REFERENCE!, c)).toEqual(c.reference);
  }, 60_000);

  // The reference repository's own checkpoints (the folder beside its scripts/), read from the copy
  // rather than stored here: both CLIs agree on every aspect.
  const checkout = REFERENCE ? path.dirname(path.dirname(REFERENCE)) : "";
  it("agrees on the reference repository's own checkpoints", async () => {
    const dir = path.join(checkout, ".checkpoints");
    const files = Object.fromEntries(fs.readdirSync(dir).filter((f) => f.endsWith(".checkpoint.json")).map((f) => [f, fs.readFileSync(path.join(dir, f), "utf8")]));
    expect(Object.keys(files).length).toBeGreaterThan(0);
    const c = { name: "the reference's own checkpoints", files };
    expect(differences(referenceVerdicts(REFERENCE!, c), await aopVerdicts(c))).toEqual([]);
  }, 120_000);

  it("doctor finds the same missing generated_files in the reference's own checkout", async () => {
    const ref = spawnSync(process.execPath, ["--import", path.join(REPO_ROOT, "scripts", "parity", "pin-clock.mjs"), REFERENCE!, "doctor"], { cwd: checkout, encoding: "utf8", env: { ...process.env, PARITY_NOW: stored.now } });
    const perSkill = new Map<string, number>();
    for (const m of ref.stdout.matchAll(/^⚠ \[(.+?)\] (?:generated_files references missing path|…and (\d+) more missing generated_files)/gm)) perSkill.set(m[1]!, (perSkill.get(m[1]!) ?? 0) + (m[2] ? Number(m[2]) : 1));
    const aop = JSON.parse((await runCliAsync(["doctor", "--json"], { bin: CHECKPOINT_BIN, cwd: checkout, env: { AOP_NOW: stored.now, AOP_ROOT: checkout } })).stdout) as { findings: { kind: string; skill: string }[] };
    const aopPerSkill = new Map<string, number>();
    for (const f of aop.findings.filter((x) => x.kind === "generated_file_missing")) aopPerSkill.set(f.skill, (aopPerSkill.get(f.skill) ?? 0) + 1);
    expect(perSkill.size).toBeGreaterThan(0);
    expect(Object.fromEntries(aopPerSkill)).toEqual(Object.fromEntries(perSkill));
  }, 120_000);
});
