// Checkpoint figures: `checkpoint validate` over 1,000 generated checkpoint files, whole process, beside
// `node -e 0` (target ≤ 1.8×) and beside a process that only reads and JSON.parses the same files;
// `checkpoint next` over the same files beside the Checkpoint Protocol's reference CLI (≤ 1.0×).
import fs from "node:fs";
import path from "node:path";
import { checkpointReference, compareProcesses, node, record, tempDir, REPO_ROOT } from "../lib.mjs";

const SUITE = "checkpoints";
const FILES = 1000;
const CHECKPOINT_BIN = path.join(REPO_ROOT, "bin", "checkpoint.cjs");
const STATUSES = ["in_progress", "in_progress", "in_progress", "blocked", "complete", "failed"];
const ROW_STATUSES = ["complete", "complete", "in_progress", "not_started", "blocked"];
const WORDS = "schema migration api contract tenant queue deploy review tests cache index auth token billing report export import retry backoff metrics alert".split(" ");

/** A deterministic pseudo-random generator, so every run validates the same files. */
function prng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function sentence(rand, words) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)]);
  const text = out.join(" ");
  return text[0].toUpperCase() + text.slice(1);
}

/** A realistic checkpoint: 3–7 table rows, a primer, 1–4 next actions, sometimes blockers and pm_refs. */
export function generateCheckpoint(i) {
  const rand = prng(i + 1);
  const skill = `skill-${String(i).padStart(4, "0")}`;
  const status = STATUSES[i % STATUSES.length];
  const created = Date.UTC(2026, 1, 1) + Math.floor(rand() * 20) * 86_400_000;
  const updated = created + Math.floor(rand() * 5 * 86_400_000);
  const rows = Array.from({ length: 3 + Math.floor(rand() * 5) }, (_, k) => ({ id: `r${k + 1}`, label: sentence(rand, 3), status: ROW_STATUSES[Math.floor(rand() * ROW_STATUSES.length)] }));
  const doc = {
    protocol_version: "1.0",
    skill,
    project: "shop-api",
    project_dir: "/home/dana/src/shop-api",
    created_at: new Date(created).toISOString(),
    updated_at: new Date(updated).toISOString(),
    phase: sentence(rand, 1).toLowerCase(),
    step: sentence(rand, 2).toLowerCase().replace(" ", "-"),
    status,
    progress_summary: `${sentence(rand, 14)}. ${sentence(rand, 16)}. ${sentence(rand, 12)}.`,
    progress_table: rows,
    context_primer: {
      key_decisions: [sentence(rand, 8), sentence(rand, 10)],
      generated_files: [`docs/${WORDS[i % WORDS.length]}.md`],
      user_preferences: [sentence(rand, 6)],
    },
    next_actions: Array.from({ length: 1 + Math.floor(rand() * 4) }, (_, k) => (k === 0 ? { text: sentence(rand, 7), done_when: "npm test" } : sentence(rand, 6))),
  };
  if (status === "blocked" || rand() < 0.2) doc.blockers = [{ id: "b1", description: sentence(rand, 9), blocking: rows[rows.length - 1].id, needs: rand() < 0.5 ? "user_decision" : "code_fix" }];
  if (rand() < 0.5) doc.pm_refs = [{ provider: "jira", id: `SHOP-${100 + i}`, role: "source" }];
  if (rand() < 0.5) doc.skill_state = { cursor: Math.floor(rand() * 1000), seen: [sentence(rand, 2), sentence(rand, 2)] };
  return doc;
}

export function writeCheckpointFolder(root, count = FILES) {
  const dir = path.join(root, ".checkpoints");
  fs.mkdirSync(path.join(root, ".git"), { recursive: true });
  fs.mkdirSync(dir, { recursive: true });
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const doc = generateCheckpoint(i);
    const text = JSON.stringify(doc, null, 2) + "\n";
    bytes += text.length;
    fs.writeFileSync(path.join(dir, `${doc.skill}.checkpoint.json`), text);
  }
  return { dir, averageBytes: Math.round(bytes / count) };
}

export async function run() {
  const root = tempDir("aop-bench-ckpt-");
  const { averageBytes } = writeCheckpointFolder(root);
  const options = { cwd: root };
  const readParse = `const fs=require("fs");const d=".checkpoints";for(const n of fs.readdirSync(d))JSON.parse(fs.readFileSync(d+"/"+n,"utf8"));`;
  const validate = compareProcesses(node([CHECKPOINT_BIN, "validate"], options), node(["-e", "0"], options), 21);
  record({ suite: SUITE, name: `checkpoint validate, ${FILES} files (~${averageBytes} B), whole process`, value: validate.subjectMs, unit: "ms", baselineName: "node -e 0", baselineValue: validate.baselineMs, target: { max: 1.8, label: "≤ 1.8× node" } });
  const floor = compareProcesses(node([CHECKPOINT_BIN, "validate"], options), node(["-e", readParse], options), 11);
  record({ suite: SUITE, name: `checkpoint validate vs only reading + parsing them`, value: floor.subjectMs, unit: "ms", baselineName: "read + JSON.parse", baselineValue: floor.baselineMs });
  const viaAop = compareProcesses(node([path.join(REPO_ROOT, "bin", "aop.js"), "checkpoint", "validate"], options), node(["-e", "0"], options), 11);
  record({ suite: SUITE, name: `aop checkpoint validate, ${FILES} files, whole process`, value: viaAop.subjectMs, unit: "ms", baselineName: "node -e 0", baselineValue: viaAop.baselineMs });
  const reference = checkpointReference(root);
  if (reference) {
    const next = compareProcesses(node([path.join(REPO_ROOT, "bin", "aop.js"), "checkpoint", "next"], options), node([reference, "next"], options), 11);
    record({ suite: SUITE, name: `aop checkpoint next, ${FILES} files, beside the reference CLI`, value: next.subjectMs, unit: "ms", baselineName: "reference checkpoint.mjs next", baselineValue: next.baselineMs, target: { max: 1, label: "≤ 1.0× reference" } });
  }
  fs.rmSync(root, { recursive: true, force: true });
}
