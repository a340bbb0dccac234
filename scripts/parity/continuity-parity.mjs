#!/usr/bin/env node
// Differential run of `aop continuity doctor` against memory-continuity's reference doctor
// (scripts/continuity_doctor.py, release v5.0.1; docs/continuity.md). Each crafted workspace of
// continuity-cases.mjs is written to a temporary folder, both doctors run on it, and their verdicts
// are compared: the exit code and the findings, each as a key (`CONT_003:Blockers`, `CONT_005` …).
//
//   node scripts/parity/continuity-parity.mjs --reference /path/to/continuity_doctor.py [--record]
//   node scripts/parity/continuity-parity.mjs --stored     (aop against the stored verdicts)
//
// --record stores every workspace with the reference's verdicts (facts, never its code) in
// test/domains/continuity/fixtures/reference-verdicts.json, which reference-differential.test.ts replays.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { continuityCases } from "./continuity-cases.mjs";
import { pool } from "./checkpoint-parity.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..", "..");
export const FIXTURE = path.join(REPO, "test", "domains", "continuity", "fixtures", "reference-verdicts.json");
const DOCTOR_BIN = path.join(REPO, "bin", "continuity-doctor.cjs");
const HOUR = 3_600_000;

/** Writes a case's workspace (and its transcripts folder) into a fresh folder. */
export function materialize(c) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "cont-parity-"));
  const root = path.join(base, "workspace");
  const transcripts = path.join(base, "transcripts");
  fs.mkdirSync(root);
  fs.mkdirSync(transcripts);
  const now = Date.now();
  for (const [rel, content] of Object.entries(c.files)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (typeof content === "string") fs.writeFileSync(file, content);
    else if (content.dir) fs.mkdirSync(file, { recursive: true });
    else fs.writeFileSync(file, Buffer.from(content.base64, "base64"));
  }
  for (const [rel, hours] of Object.entries(c.hours ?? {})) fs.utimesSync(path.join(root, rel), new Date(now - hours * HOUR), new Date(now - hours * HOUR));
  for (const [rel, hours] of Object.entries(c.transcripts ?? {})) {
    const file = path.join(transcripts, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"type":"user"}\n');
    fs.utimesSync(file, new Date(now - hours * HOUR), new Date(now - hours * HOUR));
  }
  return { base, root, transcripts };
}

/** The reference's report lines as finding keys; OK lines and "no archives yet" are not findings. */
function referenceKeys(stdout) {
  const keys = [];
  for (const line of stdout.split("\n")) {
    const m = /^\[(CRITICAL|WARNING|INFO)\]\s+(.*)$/.exec(line);
    if (!m) continue;
    const [, severity, message] = m;
    let key = null;
    if (/does not exist$/.test(message) && message.startsWith("memory/")) key = "CONT_001";
    else if (message.startsWith("Workspace does not exist")) key = "CONT_WORKSPACE_MISSING";
    else if (message.startsWith("CURRENT_STATE.md")) key = `CONT_002:${severity.toLowerCase()}`;
    else if (message.startsWith("Missing section: ## ")) key = `CONT_003:${message.slice("Missing section: ## ".length)}`;
    else if (/^Section '(.*)' still contains placeholder text/.test(message)) key = `CONT_004:${/^Section '(.*?)'/.exec(message)[1]}`;
    else if (message.startsWith("Unsurfaced Results section is not empty")) key = "CONT_005";
    else if (message.startsWith("Archive objective differs")) key = "CONT_006";
    else if (message.startsWith("Objective does not seem to match")) key = "CONT_007";
    if (key) keys.push(key);
  }
  return keys.sort();
}

/** aop's findings as the same keys. */
export function aopKeys(report) {
  const keys = [];
  for (const f of [...report.problems, ...report.workspaces.flatMap((w) => w.findings)]) {
    const id = f.id.replace(/^(CONT_\d{3})_.*$/, "$1");
    if (id === "CONT_002") keys.push(`CONT_002:${f.severity}`);
    else if (id === "CONT_003" || id === "CONT_004") {
      const section = /^Missing section: ## (.*)$/.exec(f.message) ?? /^Section '(.*?)'/.exec(f.message);
      keys.push(section ? `${id}:${section[1]}` : id);
    } else keys.push(id);
  }
  return keys.sort();
}

export function referenceVerdict(script, c) {
  const { base, root } = materialize(c);
  try {
    const r = spawnSync("python3", [script, "--workspace", root], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: base, LANG: "C.UTF-8" } });
    if (r.stderr.includes("Traceback")) return { crash: /(\w+Error)[:\s]/.exec(r.stderr.split("\n").filter(Boolean).at(-1) ?? "")?.[1] ?? "crash" };
    return { exit: r.status, findings: referenceKeys(r.stdout) };
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

/** aop's verdict through the `continuity-doctor` bin: exit code, finding keys, and whether it failed cleanly. */
export function aopVerdict(c) {
  const { base, root, transcripts } = materialize(c);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [DOCTOR_BIN, "--workspace", root, "--transcripts", transcripts, "--json"], { env: { PATH: process.env.PATH, HOME: base, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (exit) => {
      fs.rmSync(base, { recursive: true, force: true });
      let findings = null;
      try {
        findings = aopKeys(JSON.parse(stdout));
      } catch {
        /* not a report */
      }
      resolve({ exit, findings, stack_trace: /\n\s+at .+\(.*:\d+:\d+\)/.test(stderr + stdout) });
    });
  });
}

export function differences(ref, aop) {
  if (ref.crash) return [];
  const out = [];
  if (ref.exit !== aop.exit) out.push(`exit: ${ref.exit} → ${aop.exit}`);
  if (JSON.stringify(ref.findings) !== JSON.stringify(aop.findings)) out.push(`findings: ${JSON.stringify(ref.findings)} → ${JSON.stringify(aop.findings)}`);
  return out;
}

async function main(argv) {
  const at = argv.indexOf("--reference");
  const script = at >= 0 ? argv[at + 1] : process.env.CONTINUITY_REFERENCE;
  if (!argv.includes("--stored") && (!script || !fs.existsSync(script))) {
    console.error("usage: continuity-parity.mjs --reference /path/to/continuity_doctor.py [--record] | --stored");
    return 2;
  }
  const rows = argv.includes("--stored") ? JSON.parse(fs.readFileSync(FIXTURE, "utf8")).cases : continuityCases().map((c) => ({ ...c, reference: referenceVerdict(script, c) }));
  const aop = await pool(rows, 3, (c) => aopVerdict(c));
  let agree = 0;
  rows.forEach((row, i) => {
    const diff = differences(row.reference, aop[i]);
    if (row.reference.crash) console.log(`· ${row.name}: the reference crashes (${row.reference.crash}); aop exits ${aop[i].exit}${aop[i].stack_trace ? " WITH A STACK TRACE" : ""}`);
    if (diff.length === 0) agree++;
    else console.log(`✗ ${row.name}\n    ${diff.join("\n    ")}`);
  });
  console.log(`${agree}/${rows.length} workspaces agree`);
  if (argv.includes("--record")) {
    fs.mkdirSync(path.dirname(FIXTURE), { recursive: true });
    fs.writeFileSync(FIXTURE, JSON.stringify({ reference: "scripts/continuity_doctor.py of memory-continuity, release v5.0.1", cases: rows }, null, 1) + "\n");
    console.log(`recorded ${rows.length} workspaces in ${path.relative(REPO, FIXTURE)}`);
  }
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
