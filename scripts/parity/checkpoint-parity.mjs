#!/usr/bin/env node
// Differential run of `aop checkpoint` against the Checkpoint Protocol's reference CLI
// (scripts/checkpoint.mjs of its public repository; docs/checkpoints.md). Each crafted project of
// checkpoint-cases.mjs is written to a temporary folder, both CLIs run on it with the clock pinned,
// and their verdicts are compared: validate exit codes (plain and --strict) and error/warning counts
// per file, the skill `next` chooses, what `status` lists and flags, and what `done` writes.
//
//   node scripts/parity/checkpoint-parity.mjs --reference /path/to/checkpoint.mjs [--record]
//   node scripts/parity/checkpoint-parity.mjs --stored     (aop against the stored verdicts)
//
// --record stores every project with the reference's verdicts (facts, never its code) in
// test/domains/checkpoints/fixtures/reference-verdicts.json, which reference-differential.test.ts
// replays against aop in `npm test`.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PARITY_NOW, checkpointCases } from "./checkpoint-cases.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..", "..");
export const FIXTURE = path.join(REPO, "test", "domains", "checkpoints", "fixtures", "reference-verdicts.json");
const PIN_CLOCK = path.join(HERE, "pin-clock.mjs");
const CHECKPOINT_BIN = path.join(REPO, "bin", "checkpoint.cjs");

/** Writes a case's `.checkpoints/` into a fresh folder; returns the project folder. */
export function materialize(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "ckpt-parity-"));
  fs.mkdirSync(path.join(root, ".checkpoints"));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(root, ".checkpoints", name), text);
  return root;
}

function doneResult(root, skill, exit) {
  const file = path.join(root, ".checkpoints", `${skill}.checkpoint.json`);
  let after = null;
  try {
    after = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    /* no file, or not JSON */
  }
  const first = Array.isArray(after?.recently_done) ? after.recently_done[0] : undefined;
  return {
    exit: exit === 0 ? 0 : 1,
    next_actions: Array.isArray(after?.next_actions) ? after.next_actions.length : null,
    recently_done: Array.isArray(after?.recently_done) ? after.recently_done.length : null,
    done_action: first === undefined ? null : first.action,
  };
}

/** Per-file counts from the reference's validate output: blocks headed `✓ file`/`✗ file`, indented lines under them. */
function referenceBlocks(text) {
  const blocks = {};
  let current = null;
  for (const line of text.split("\n")) {
    const head = /^([✓✗]) (.+)$/.exec(line);
    if (head) {
      current = blocks[head[2]] = { ok: head[1] === "✓", lines: [] };
    } else if (current && /^ {4}\S/.test(line)) current.lines.push(line.trim());
    else if (line.trim() === "" || !line.startsWith(" ")) current = line.trim() === "" ? current : null;
  }
  return blocks;
}

// ───────────────────────────── the reference ─────────────────────────────

function runReference(script, root, args) {
  const r = spawnSync(process.execPath, ["--import", PIN_CLOCK, path.join(root, "scripts", "checkpoint.mjs"), ...args], {
    cwd: root,
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: root, PARITY_NOW, GIT_CEILING_DIRECTORIES: path.dirname(root) },
  });
  return { exit: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The reference CLI's verdicts on one case (it finds its project as the parent of its script's folder). */
export function referenceVerdicts(script, c) {
  const root = materialize(c.files);
  try {
    fs.mkdirSync(path.join(root, "scripts"));
    fs.copyFileSync(script, path.join(root, "scripts", "checkpoint.mjs"));
    const plain = runReference(script, root, ["validate"]);
    const strict = runReference(script, root, ["validate", "--strict"]);
    const plainBlocks = { ...referenceBlocks(plain.stdout), ...referenceBlocks(plain.stderr) };
    const strictBlocks = { ...referenceBlocks(strict.stdout), ...referenceBlocks(strict.stderr) };
    const files = {};
    for (const [name, b] of Object.entries(plainBlocks)) {
      const errors = b.ok ? 0 : b.lines.length;
      const warnings = b.ok ? b.lines.length : Math.max(0, (strictBlocks[name]?.lines.length ?? 0) - errors);
      files[name] = { errors, warnings };
    }
    const verdict = { validate: { exit: plain.exit, strict_exit: strict.exit, files } };
    const next = runReference(script, root, ["next"]);
    const skill = /^Skill: +(.*?) {2}\(/m.exec(next.stdout);
    const action = /^Action: (.*)$/m.exec(next.stdout);
    verdict.next = next.exit === 0 ? { skill: skill ? skill[1] : null, action: action ? action[1] : null } : { crash: true };
    const status = runReference(script, root, ["status"]);
    if (status.exit === 0) {
      const decisions = [...status.stdout.matchAll(/^ {3}• \[(.*?)\] /gm)].map((m) => m[1]);
      const rows = status.stdout.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| Skill ")).map((l) => l.split("|").map((cell) => cell.trim()));
      verdict.status = { listed: rows.length, decisions: decisions.sort(), stale: rows.filter((r) => r[6].includes("stale")).map((r) => r[1]).sort() };
    } else verdict.status = { crash: true };
    if (c.done) {
      const done = runReference(script, root, ["done", c.done]);
      verdict.done = doneResult(root, c.done, done.exit);
    }
    return verdict;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

// ───────────────────────────── aop ─────────────────────────────

function runAop(root, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CHECKPOINT_BIN, ...args, "--dir", path.join(root, ".checkpoints")], {
      cwd: root,
      env: { ...process.env, AOP_NOW: PARITY_NOW, AOP_ROOT: root, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.resume();
    child.on("close", (exit) => resolve({ exit, stdout }));
  });
}

/** aop's verdicts on one case, in the reference's terms. */
export async function aopVerdicts(c) {
  const root = materialize(c.files);
  try {
    const [validate, next, status] = await Promise.all([runAop(root, ["validate", "--json"]), runAop(root, ["next", "--json"]), runAop(root, ["status", "--json"])]);
    const report = JSON.parse(validate.stdout);
    const files = {};
    let strictFails = false;
    for (const f of report.files) {
      files[f.file] = { errors: f.errors.length, warnings: f.warnings.length };
      if (f.errors.length + f.warnings.length > 0) strictFails = true;
    }
    const verdict = { validate: { exit: validate.exit, strict_exit: strictFails ? 1 : 0, files } };
    const picked = JSON.parse(next.stdout);
    verdict.next = { skill: picked.skill === null ? null : String(picked.skill), action: picked.action };
    const st = JSON.parse(status.stdout);
    verdict.status = { listed: st.checkpoints.length + st.invalid.length, decisions: st.decisions.map((d) => String(d.skill)).sort(), stale: st.checkpoints.filter((r) => r.stale).map((r) => String(r.skill)).sort() };
    if (c.done) {
      const done = await runAop(root, ["done", c.done, "--json"]);
      verdict.done = doneResult(root, c.done, done.exit);
    }
    return verdict;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** Where two verdicts differ, as `aspect: reference → aop` lines (next's action text is not compared: see docs/checkpoints.md). */
export function differences(ref, aop) {
  const out = [];
  const cmp = (aspect, a, b) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${aspect}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
  };
  cmp("validate.exit", ref.validate.exit, aop.validate.exit);
  cmp("validate.strict_exit", ref.validate.strict_exit, aop.validate.strict_exit);
  for (const name of new Set([...Object.keys(ref.validate.files), ...Object.keys(aop.validate.files)])) {
    cmp(`validate.files.${name}`, ref.validate.files[name] ?? null, aop.validate.files[name] ?? null);
  }
  if (!ref.next.crash) cmp("next.skill", ref.next.skill, aop.next.skill);
  if (!ref.status.crash) {
    // status lists a file with errors among the invalid ones, without judging its age or blockers
    // (docs/checkpoints.md, `status`): staleness and decisions are compared on files valid for both.
    const valid = (skill) => ref.validate.files[`${skill}.checkpoint.json`]?.errors === 0 && aop.validate.files[`${skill}.checkpoint.json`]?.errors === 0;
    cmp("status.listed", ref.status.listed, aop.status.listed);
    cmp("status.decisions", ref.status.decisions.filter(valid), aop.status.decisions.filter(valid));
    cmp("status.stale", ref.status.stale.filter(valid), aop.status.stale.filter(valid));
  }
  if (ref.done) cmp("done", ref.done, aop.done);
  return out;
}

/** Runs `fn` over `items` with at most `limit` at a time, results in order. */
export async function pool(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function main(argv) {
  const at = argv.indexOf("--reference");
  const script = at >= 0 ? argv[at + 1] : process.env.CHECKPOINT_REFERENCE;
  if (!argv.includes("--stored") && (!script || !fs.existsSync(script))) {
    console.error("usage: checkpoint-parity.mjs --reference /path/to/checkpoint.mjs [--record]");
    return 2;
  }
  const cases = checkpointCases();
  const rows = argv.includes("--stored") ? JSON.parse(fs.readFileSync(FIXTURE, "utf8")).cases : cases.map((c) => ({ ...c, reference: referenceVerdicts(script, c) }));
  const aop = await pool(rows, 3, (c) => aopVerdicts(c));
  let agree = 0;
  rows.forEach((row, i) => {
    const diff = differences(row.reference, aop[i]);
    if (diff.length === 0) agree++;
    else console.log(`✗ ${row.name}\n    ${diff.join("\n    ")}`);
  });
  console.log(`${agree}/${rows.length} projects agree`);
  if (argv.includes("--record")) {
    fs.writeFileSync(FIXTURE, JSON.stringify({ now: PARITY_NOW, reference: "scripts/checkpoint.mjs of the Checkpoint Protocol's repository, release 1.8.2", cases: rows }, null, 1) + "\n");
    console.log(`recorded ${rows.length} projects in ${path.relative(REPO, FIXTURE)}`);
  }
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
