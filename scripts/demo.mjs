// npm run demo: builds a throw-away workspace in a temp folder and walks through every subsystem
// with the real CLI, printing each command and its output.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = path.join(repo, "bin", "aop.js");
if (!fs.existsSync(path.join(repo, "dist", "cli", "main.js"))) {
  process.stderr.write("dist/ is missing: run `npm install` (it builds) or `npm run build` first\n");
  process.exit(1);
}
const root = fs.mkdtempSync(path.join(os.tmpdir(), "aop-demo-"));
fs.mkdirSync(path.join(root, ".git"));
const bold = (s) => (process.stdout.isTTY && !process.env.NO_COLOR ? `\u001b[1m${s}\u001b[22m` : s);

function step(title, args, { allowFail = false, env = {} } = {}) {
  process.stdout.write(`\n${bold(`## ${title}`)}\n$ aop ${args.join(" ")}\n`);
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" });
  process.stdout.write(r.stdout);
  if (r.stderr) process.stdout.write(r.stderr);
  if (r.status !== 0 && !allowFail) {
    process.stderr.write(`demo step failed (exit ${r.status}); workspace kept at ${root}\n`);
    process.exit(1);
  }
  return r;
}

process.stdout.write(`aop-continuity demo — throw-away workspace: ${root}\n`);
step("Scaffold the workspace", ["init"]);
step("Validate configuration", ["config", "check"]);
const policyFile = path.join(root, "agentic/orchestrator/policy.yaml");
const policyText = fs.readFileSync(policyFile, "utf8");
fs.writeFileSync(policyFile, policyText.replace("write_mode: best_effort", "write_mode: sometimes"));
step("A broken policy is reported with file, path and fix (exit 1)", ["config", "check"], { allowFail: true });
fs.writeFileSync(policyFile, policyText);

step("Checkpoints: create the folder", ["checkpoint", "init"]);
step("Checkpoints: a skill records where it stands (the file is created)", [
  "checkpoint", "update", "architect", "--phase=design", "--step=api-contract",
  "--progress_summary=Orders contract drafted; error model next.",
  '--progress_table:json=[{"id":"orders","label":"Orders API","status":"in_progress"},{"id":"payments","label":"Payments API","status":"not_started"}]',
  '--next_actions:json+={"text":"Write the error model","done_when":"true"}', "--next_actions+=Draft the payments endpoints",
]);
step("Checkpoints: what a new session reads first", ["checkpoint", "resume", "architect"]);
step("Checkpoints: mark the next action done after its done_when passes", ["checkpoint", "done", "architect", "--verify"]);
step("Checkpoints: every skill at a glance", ["checkpoint", "status"]);
step("Checkpoints: validate (what a git hook runs)", ["checkpoint", "validate"]);

fs.rmSync(root, { recursive: true, force: true });
process.stdout.write(`\ndemo finished; workspace removed\n`);
