// npm run demo: builds a throw-away workspace in a temp folder and walks through every subsystem
// with the real CLI, printing each command and its output.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = path.join(repo, "bin", "aop.js");
if (!fs.existsSync(path.join(repo, "dist", "adapters", "cli", "main.js"))) {
  process.stderr.write("dist/ is missing: run `npm run build` first\n");
  process.exit(1);
}
const root = fs.mkdtempSync(path.join(os.tmpdir(), "aop-demo-"));
// The signing key of the demo lives in a throw-away config folder, never in your ~/.config.
const keyHome = fs.mkdtempSync(path.join(os.tmpdir(), "aop-demo-keys-"));
fs.mkdirSync(path.join(root, ".git"));
const bold = (s) => (process.stdout.isTTY && !process.env.NO_COLOR ? `\u001b[1m${s}\u001b[22m` : s);

const shellQuote = (a) => (/^[A-Za-z0-9_./:@+=,-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

/** Every command the demo runs signs with the throw-away key (and never looks at your ~/.config). */
function demoEnv(extra = {}) {
  return { ...process.env, XDG_CONFIG_HOME: keyHome, AOP_SIGNING_KEY: "", ...extra };
}

function step(title, args, { allowFail = false, env = {}, cwd = root, where = "" } = {}) {
  process.stdout.write(`\n${bold(`## ${title}`)}\n${where}$ aop ${args.map(shellQuote).join(" ")}\n`);
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, env: demoEnv(env), encoding: "utf8" });
  process.stdout.write(r.stdout);
  if (r.stderr) process.stdout.write(r.stderr);
  if (r.status !== 0 && !allowFail) {
    process.stderr.write(`demo step failed (exit ${r.status}); workspace kept at ${root}\n`);
    process.exit(1);
  }
  return r;
}

function hook(title, event) {
  process.stdout.write(`\n${bold(`## ${title}`)}\n$ echo '${JSON.stringify({ hook_event_name: event.hook_event_name, tool_name: event.tool_name })}…' | aop hook claude\n`);
  const r = spawnSync(process.execPath, [bin, "hook", "claude"], { cwd: root, input: JSON.stringify({ session_id: SESSION, cwd: root, transcript_path: path.join(root, "transcript.jsonl"), ...event }), encoding: "utf8" });
  if (r.stdout) {
    const out = JSON.parse(r.stdout);
    process.stdout.write(`${out.hookSpecificOutput.additionalContext}\n`);
  }
}

const SESSION = "5f0c2a8e-1d3b-4c6a-9e7f-2b4d6f8a0c1e";

function git(cwd, ...args) {
  return spawnSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "demo", GIT_AUTHOR_EMAIL: "demo@example.invalid", GIT_COMMITTER_NAME: "demo", GIT_COMMITTER_EMAIL: "demo@example.invalid" } });
}

/** Machine A ends its session with `aop handoff`; machine B, a fresh clone, pulls and resumes from it. */
function twoCloneHandoff() {
  if (git(root, "--version").status !== 0) {
    process.stdout.write(`\n${bold("## Handoff across machines: skipped (git is not installed)")}\n`);
    return;
  }
  const remote = path.join(root, "remote.git");
  const [laptop, runner] = [path.join(root, "laptop"), path.join(root, "ci-runner")];
  git(root, "init", "-q", "--bare", remote);
  for (const dir of [laptop, runner]) {
    git(root, "clone", "-q", remote, dir);
    spawnSync(process.execPath, [bin, "init"], { cwd: dir, env: demoEnv(), encoding: "utf8" });
  }
  fs.mkdirSync(path.join(laptop, "memory"), { recursive: true });
  fs.writeFileSync(
    path.join(laptop, "memory/CURRENT_STATE.md"),
    "# Current State\n\n## Objective\nShip the login page\n\n## Current Step\nSession cookie done\n\n## Key Decisions\n- Cookies are HttpOnly\n\n## Next Action\nAdd the logout endpoint and its test\n\n## Blockers\nNone\n\n## Unsurfaced Results\nNone\n",
  );
  const onLaptop = { cwd: laptop, where: "laptop " };
  const onRunner = { cwd: runner, where: "ci-runner " };
  step("Laptop: a checkpoint says where the work stands", ["checkpoint", "update", "builder", "--status=in_progress", "--phase=build", "--step=logout", "--progress_summary=login and session cookie done", "--next_actions+=Add the logout endpoint"], onLaptop);
  step("Laptop: some work on a feature", ["--run-id", "run:laptop", "feature", "init", "feat_logout", "--title", "Logout"], onLaptop);
  step("Laptop: …and its fast gate, with evidence", ["--run-id", "run:laptop", "gates", "run", "--feature-id", "feat_logout", "--mode", "fast"], onLaptop);
  step("Laptop: push its records to the remote under a name of its own", ["sync", "push", "--name", "ada@laptop"], onLaptop);
  step("Laptop: end the session — checklist, handoff note, pushed with the records", ["handoff", "--message", "logout is next; CI runs the slow tests"], onLaptop);
  step("CI runner: pull every other workspace's records (read-only, beside its own)", ["sync", "pull"], onRunner);
  step("CI runner: the laptop's runs, by origin", ["replay", "--list"], onRunner);
  step("CI runner: the laptop's evidence, verified here", ["evidence", "verify", "--origin", "ada@laptop", "--all"], onRunner);
  step("CI runner: start from the laptop's handoff", ["resume", "--from", "ada@laptop"], onRunner);
  process.stdout.write(`\n${bold("## CI runner: a new agent session opens with the laptop's next action")}\nci-runner $ echo '{"hook_event_name":"SessionStart",…}' | aop hook claude\n`);
  const started = spawnSync(process.execPath, [bin, "hook", "claude"], { cwd: runner, input: JSON.stringify({ hook_event_name: "SessionStart", source: "startup", session_id: "9a1c3e5f-0000-4000-8000-00000000c1c1", cwd: runner }), encoding: "utf8" });
  const context = started.stdout ? JSON.parse(started.stdout).hookSpecificOutput.additionalContext : "";
  process.stdout.write(`${context.split("\n").slice(0, 6).join("\n")}\n…\n`);
}
const saved = new Map();

/** What an attacker with write access does: edit an artifact, then recompute the chain and manifest. */
async function rewriteWholeChain() {
  const { computeChainHash, GENESIS_HASH, sha256Of } = await import(pathToFileURL(path.join(repo, "dist", "index.js")).href);
  const dir = path.join(root, ".aop/features/feat_login/evidence");
  for (const name of ["chain.jsonl", "manifest.integrity.json"]) saved.set(path.join(dir, name), fs.readFileSync(path.join(dir, name)));
  const entries = fs.readFileSync(path.join(dir, "chain.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  // The newest run: it is attested, and latest-fast.json copies it (so the attacker rewrites that too).
  const target = path.join(root, entries[entries.length - 1].artifact_rel_path);
  const latest = path.join(dir, "latest-fast.json");
  for (const file of [target, latest]) saved.set(file, fs.readFileSync(file));
  fs.writeFileSync(target, fs.readFileSync(target, "utf8").replace('"overall": "pass"', '"overall": "fail"'));
  fs.copyFileSync(target, latest);
  let prev = GENESIS_HASH;
  const lines = entries.map((e) => {
    const entry = { ...e, artifact_hash: sha256Of(fs.readFileSync(path.join(root, e.artifact_rel_path))), prev_chain_hash: prev };
    entry.chain_hash = computeChainHash(entry);
    prev = entry.chain_hash;
    return JSON.stringify(entry);
  });
  fs.writeFileSync(path.join(dir, "chain.jsonl"), lines.join("\n") + "\n");
  fs.writeFileSync(path.join(dir, "manifest.integrity.json"), JSON.stringify({ entry_count: lines.length, head_hash: prev, last_verified_at: null, last_verified_result: null }));
  process.stdout.write(`\n${bold("## An attacker rewrites history")}\n(turns ${path.basename(target)} into a failed run, copies it to latest-fast.json, recomputes every chain hash and the manifest: the plain chain would verify)\n`);
}

function restoreEvidence() {
  for (const [file, bytes] of saved) fs.writeFileSync(file, bytes);
}
process.stdout.write(`aop-continuity demo — throw-away workspace: ${root}\n`);
step("Scaffold the workspace", ["init"]);
step("Validate configuration", ["config", "check"]);
const policyFile = path.join(root, "agentic/orchestrator/policy.yaml");
const policyText = fs.readFileSync(policyFile, "utf8");
fs.writeFileSync(policyFile, policyText.replace("write_mode: best_effort", "write_mode: sometimes"));
step("A broken policy is reported with file, path and fix (exit 1)", ["config", "check"], { allowFail: true });
// The demo turns the tamper-evident evidence chain on (it is off by default).
fs.writeFileSync(policyFile, policyText.replace("tamper_evident_evidence: false", "tamper_evident_evidence: true").replace("enabled: false                # with", "enabled: true                 # with"));

step("Kernel: create a feature (every call goes through the tool pipeline)", ["feature", "init", "feat_login", "--title", "Login page"]);
step("Kernel: start a run (a lease with a TTL); later calls are recorded in it", ["run", "start", "--new-run-id", "run:demo", "--owner", "demo-orchestrator"]);
step("Kernel: assign an agent session to the feature", ["session", "assign", "--feature-id", "feat_login", "--role", "builder", "--session", "sess-builder-1"]);
step("Idempotency: the same operation id runs once…", ["call", "feature.set_status", "--args", '{"feature_id":"feat_login","status":"blocked"}', "--operation-id", "op-demo-block-1"]);
step("…and a retry replays the recorded result instead of running again", ["call", "feature.set_status", "--args", '{"feature_id":"feat_login","status":"blocked"}', "--operation-id", "op-demo-block-1"]);
step("Kernel: features at a glance", ["feature", "list"]);

step("Gates: run the fast gate (argv steps, logs hashed into the evidence)", ["gates", "run", "--feature-id", "feat_login", "--mode", "fast"]);
step("Evidence: the newest gate evidence", ["evidence", "latest", "--feature-id", "feat_login"]);
step("Evidence: verify the integrity chain", ["evidence", "verify", "--feature-id", "feat_login"]);
const evidenceDir = path.join(root, ".aop/features/feat_login/evidence");
const gateFile = path.join(evidenceDir, fs.readdirSync(evidenceDir).find((f) => f.startsWith("gate-")));
const original = fs.readFileSync(gateFile);
fs.writeFileSync(gateFile, original.toString("utf8").replace('"overall": "pass"', '"overall": "pazz"'));
step("Evidence: one edited byte in an artifact fails verification (exit 1)", ["evidence", "verify", "--feature-id", "feat_login"], { allowFail: true });
fs.writeFileSync(gateFile, original);

// Signed evidence: attest → anchor → rewrite the whole chain → caught (docs/evidence.md).
step("Keys: an Ed25519 signing key (private key outside the workspace, public key to commit)", ["keys", "init"]);
fs.writeFileSync(policyFile, fs.readFileSync(policyFile, "utf8").replace("attest: false ", "attest: true  "));
step("Gates: with evidence_integrity.attest, a run also signs an in-toto attestation", ["gates", "run", "--feature-id", "feat_login", "--mode", "fast"]);
step("Evidence: attest on demand, also as a Sigstore bundle for @sigstore/verify", ["evidence", "attest", "--feature-id", "feat_login", "--bundle"]);
step("Evidence: anchor the chain (a signed C2SP checkpoint of its RFC 6962 root)", ["evidence", "anchor", "--feature-id", "feat_login"]);
step("Evidence: verify checks the chain, every attestation and the anchor", ["evidence", "verify", "--feature-id", "feat_login"]);
step("Evidence: an inclusion proof for entry 0, verifiable offline", ["evidence", "prove", "--feature-id", "feat_login", "--sequence", "0"]);
await rewriteWholeChain();
step("Evidence: the plain chain would pass; the anchor and the attestation catch the rewrite (exit 1)", ["evidence", "verify", "--feature-id", "feat_login"], { allowFail: true });
restoreEvidence();

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

fs.mkdirSync(path.join(root, "memory"), { recursive: true });
fs.writeFileSync(path.join(root, "transcript.jsonl"), "{}\n");
fs.writeFileSync(
  path.join(root, "memory/CURRENT_STATE.md"),
  "# Current State\n\n## Objective\nShip the login page\n\n## Current Step\nWiring the session cookie\n\n## Key Decisions\n- Cookies are HttpOnly and SameSite=Lax\n\n## Next Action\nAdd the logout endpoint\n\n## Blockers\nNone\n\n## Unsurfaced Results\nNone\n",
);
hook("Claude Code: a tool call lands in the timeline (run claude-<session>)", { hook_event_name: "PostToolUse", tool_name: "Edit", tool_input: { file_path: "src/login.ts", old_string: "a", new_string: "b" }, tool_response: { success: true }, tool_use_id: "toolu_demo_1", duration_ms: 18 });
hook("Claude Code: a failed tool call too", { hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "npm test" }, tool_use_id: "toolu_demo_2", error: "Command exited with non-zero status code 1", is_interrupt: false });
hook("Claude Code: a new session starts with this context", { hook_event_name: "SessionStart", source: "startup" });

step("Replay: runs with a timeline", ["replay", "--list"]);
step("Replay: every tool call of the run, in order", ["replay", "--run-id", "run:demo"]);
step("Replay: the Claude Code session", ["replay", "--run-id", `claude-${SESSION}`]);
step("OpenTelemetry: what the Claude Code session would send as a GenAI trace (nothing sent)", ["export", "otlp", "--run-id", `claude-${SESSION}`, "--endpoint", "http://localhost:4318", "--dry-run"]);
step("OpenTelemetry: every run into an OTLP file to hand over (one TracesData per line)", ["export", "otlp", "--all", "--out", "traces.jsonl"]);
step("Continuity doctor: memory/CURRENT_STATE.md", ["continuity", "doctor", "--transcripts", root]);
step("Release the run", ["run", "stop"]);
step("Doctor: every check, one report (persisted in .aop/runtime/doctor/)", ["doctor"]);
// A second run of the same workflow, with one call failing this time, to compare with run:demo.
const rerun = [["session", "assign", "--feature-id", "feat_login", "--role", "builder", "--session", "sess-builder-1"], ["feature", "list"], ["gates", "run", "--feature-id", "feat_login", "--mode", "nightly"], ["evidence", "latest", "--feature-id", "feat_login"]];
process.stdout.write(`\n${bold("## A second run of the same workflow (output not shown)")}\n${rerun.map((a) => `$ aop ${a.map(shellQuote).join(" ")} --run-id run:demo-2`).join("\n")}\n`);
for (const args of rerun) spawnSync(process.execPath, [bin, ...args, "--run-id", "run:demo-2"], { cwd: root, env: demoEnv(), encoding: "utf8" });
step("Report: what changed between the two runs (aligned by operation id and order)", ["report", "--diff", "run:demo", "run:demo-2"]);
// Written outside the throw-away workspace, so it outlives the demo: one HTML file that opens offline.
const reportFile = path.join(os.tmpdir(), "aop-demo-report.html");
step("Report: the timeline you can look at, as one offline HTML file", ["report", "--out", reportFile]);

// Time travel and search over what the runs recorded (docs/replay.md).
step("Time travel: the state just after step 4 of run:demo (its first gate), and what changed since step 0", ["state", "--run-id", "run:demo", "--at", "4", "--diff", "0"]);
step("Search: every failed call, newest first, each with the command that opens it", ["search", "feat_login", "--result", "error"]);

// Two machines and a bare git remote: work handed from a laptop to a CI runner through git (docs/sync.md).
twoCloneHandoff();

fs.rmSync(root, { recursive: true, force: true });
fs.rmSync(keyHome, { recursive: true, force: true });
process.stdout.write(`\ndemo finished; workspace removed\nopen the report: ${reportFile}\n`);
