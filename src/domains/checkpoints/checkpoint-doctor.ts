// The facts behind the CKPT_* checks (paths that exist, tickets recent commits finished), handed to
// the pure doctor rules; one diagnosis per doctor run, shared by the checks. Read-only.
import fs from "node:fs";
import type { Clock } from "../../core/clock.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { actionText, type Checkpoint } from "./checkpoint-types.js";
import { scanCheckpoints, type CheckpointScan } from "./checkpoint-scan.js";
import { diagnoseCheckpoints, resolveNamedPath, type CheckpointDoctorFinding, type DoctorFacts } from "./doctor-rules.js";
import type { StaleDays } from "./staleness.js";
import { ticketRefs, ticketsDoneInLog } from "./ticket-refs.js";
import { namedGeneratedPath } from "./generated-files.js";
import { loadCheckpointValidator } from "./validate-checkpoint.js";

/** How far back "recent git log" looks. */
const GIT_LOG_COMMITS = 200;
const GIT_TIMEOUT_MS = 5_000;

export interface CheckpointDoctorReport {
  scan: CheckpointScan;
  findings: CheckpointDoctorFinding[];
}

function recentGitLog(projectDir: string): string {
  // node:child_process on first use: it loads the net and stream modules, which most doctor runs
  // (and every SessionStart hook) would pay for without a checkpoint naming a ticket.
  const result = process.getBuiltinModule("node:child_process").spawnSync("git", ["log", `-n${GIT_LOG_COMMITS}`, "--format=%B"], { cwd: projectDir, encoding: "utf8", timeout: GIT_TIMEOUT_MS, stdio: ["ignore", "pipe", "ignore"], maxBuffer: 16 * 1024 * 1024 });
  return result.status === 0 ? result.stdout : ""; // no git, no commits, not a repo: nothing is known to be done
}

function gatherDoctorFacts(layout: WorkspaceLayout, checkpoints: readonly Checkpoint[]): DoctorFacts {
  const projectDir = layout.checkpointsProjectDir;
  const existing = new Set<string>();
  for (const checkpoint of checkpoints) {
    const named = [checkpoint.project_dir, ...(checkpoint.context_primer?.generated_files ?? []).flatMap((e) => namedGeneratedPath(e) ?? [])];
    for (const p of named) {
      const resolved = resolveNamedPath(projectDir, p);
      if (fs.existsSync(resolved)) existing.add(resolved);
    }
  }
  const projectIsRepoRoot = fs.existsSync(layout.checkpointProjectPath(".git"));
  const doneInGit = ticketsDoneInGit(layout, checkpoints.flatMap((c) => (c.next_actions ?? []).map(actionText)));
  return { projectDir, existing, projectIsRepoRoot, doneInGit };
}

/**
 * Tickets the project's recent commits report finished; git is asked only when one of `texts` names a
 * ticket, and only when the project folder is a repository root (a folder inside some other repository
 * must not take that repository's history for its own).
 */
export function ticketsDoneInGit(layout: WorkspaceLayout, texts: readonly string[]): Set<string> {
  if (!texts.some((t) => ticketRefs(t).length > 0)) return new Set();
  if (!fs.existsSync(layout.checkpointProjectPath(".git"))) return new Set();
  return ticketsDoneInLog(recentGitLog(layout.checkpointsProjectDir));
}

export async function diagnoseFolder(layout: WorkspaceLayout, clock: Clock, staleDays: StaleDays): Promise<CheckpointDoctorReport> {
  const now = clock.now();
  const scan = scanCheckpoints(layout, await loadCheckpointValidator(), now);
  const valid = scan.files.flatMap((f) => (f.checkpoint ? [f.checkpoint] : []));
  const facts = gatherDoctorFacts(layout, valid);
  return { scan, findings: diagnoseCheckpoints(scan.files, facts, now, staleDays) };
}
