// Gathers everything a report shows from the workspace, read-only: runs and their entries, ledger
// envelopes, features with their chains, checkpoints, the doctor's last report. Nothing goes through
// the tool pipeline, which would record the report's own reads in the timeline.
import fs from "node:fs";
import path from "node:path";
import type { Clock } from "../../core/clock.js";
import { nowIso } from "../../core/clock.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { loadPolicyTolerant } from "../../config/policy-loader.js";
import { evidenceIntegrityEnabled } from "../../config/policy-types.js";
import { EvidenceTrustJudge } from "../evidence/index.js";
import { CheckpointHistory, stateTrack } from "../timetravel/index.js";
import { markLedgerEvidence } from "./evidence-marks.js";
import { gatherCheckpoints } from "./gather-checkpoints.js";
import { gatherDoctor } from "./gather-doctor.js";
import { gatherFeatures } from "./gather-features.js";
import { DEFAULT_LEDGER_BUDGET, gatherLedger, hasLedgerRecord, type LedgerBudget, type LedgerReader } from "./gather-ledger.js";
import { DEFAULT_BUDGET, gatherRuns, type GatheredRuns, type RunBudget } from "./gather-runs.js";
import { REPORT_FORMAT, type CheckpointsView, type ReportData, type StateTrackView } from "./report-types.js";
import type { TimelineRecord } from "./timeline-codec.js";
import { leavesWorkspace, requireWorkspace } from "./workspace-guard.js";

export interface ReportOptions {
  runIds: string[] | null;
  /** An ISO 8601 instant: runs without activity since then are left out, and so are older entries. */
  since: string | null;
  live: boolean;
  budget?: RunBudget;
  ledgerBudget?: LedgerBudget;
}

/** What the composition root supplies: the runtime's ledger, and the package version for the footer. */
export interface ReportPorts {
  readLedger: LedgerReader;
  version: string;
}

export interface BuiltReport {
  data: ReportData;
  records: Map<string, TimelineRecord[]>;
  cursors: Map<string, number>;
}

function linkedAway(layout: WorkspaceLayout, dir: string, notes: string[]): boolean {
  if (!leavesWorkspace(layout, dir)) return false;
  notes.push(`${layout.relative(dir)} leads outside the workspace (a symbolic link): not read`);
  return true;
}

export async function buildReport(layout: WorkspaceLayout, clock: Clock, options: ReportOptions, ports: ReportPorts): Promise<BuiltReport> {
  requireWorkspace(layout);
  const notes: string[] = [];
  const { policy, problems } = await loadPolicyTolerant(layout);
  if (problems.length > 0) notes.push(`policy.yaml has ${problems.length} problem(s): defaults used for the broken sections (aop config check)`);
  const sinceMs = options.since === null ? null : Date.parse(options.since);
  const runs: GatheredRuns = linkedAway(layout, layout.replayDir, notes)
    ? { runs: [], timelines: [], records: new Map(), cursors: new Map(), notes: [] }
    : await gatherRuns(layout, { runIds: options.runIds, sinceMs }, options.budget ?? DEFAULT_BUDGET);
  notes.push(...runs.notes);
  if (options.live) for (const run of runs.runs) run.cursor = runs.cursors.get(run.run_id) ?? null;
  // Without a ledger folder every look-up would miss: say so once instead of looking up each call.
  const hasLedger = fs.existsSync(layout.ledgerDir) && !linkedAway(layout, layout.ledgerDir, notes);
  const ledger = hasLedger ? gatherLedger(runs.records.values(), ports.readLedger, options.ledgerBudget ?? DEFAULT_LEDGER_BUDGET) : { ledger: {}, left_out: 0 };
  if (!hasLedger && [...runs.records.values()].some((records) => records.some(hasLedgerRecord))) {
    notes.push(`no idempotency ledger in this workspace (${layout.relative(layout.ledgerDir)}): mutating calls are shown without their recorded envelopes`);
  }
  if (ledger.left_out > 0) notes.push(`${ledger.left_out} mutating call(s) are shown without their ledger envelope (look-up budget); --serve fetches them on demand`);
  // One judge for the whole report: each feature's chain is read once, for its gates and its calls.
  const judge = new EvidenceTrustJudge(layout);
  const featuresAway = linkedAway(layout, layout.featuresDir, notes);
  if (!featuresAway) for (const [op, view] of Object.entries(ledger.ledger)) ledger.ledger[op] = markLedgerEvidence(view, judge);
  const features = featuresAway
    ? { integrity_enabled: evidenceIntegrityEnabled(policy), problem: "not read", items: [] }
    : await gatherFeatures(layout, clock, evidenceIntegrityEnabled(policy), judge);
  const checkpoints: CheckpointsView = linkedAway(layout, layout.checkpointsDir, notes)
    ? { exists: false, dir: layout.relative(layout.checkpointsDir), items: [] }
    : await gatherCheckpoints(layout, clock, policy.checkpoints.stale_days);
  const doctor = linkedAway(layout, layout.doctorDir, notes) ? { status: "unreadable" as const, generated_at: null, ok: null, summary: null, findings: [], problem: "not read" } : gatherDoctor(layout);
  const states: Record<string, StateTrackView> = {};
  const checkpointHistory = new CheckpointHistory(layout);
  for (const run of runs.runs) {
    const records = runs.records.get(run.run_id);
    if (!records || records.length === 0) continue;
    // A state is the fold of every step before it: a run whose older entries are not here gets none.
    states[run.run_id] =
      records[0]!.sequence === 0 && run.omitted_entries === 0
        ? stateTrack(layout, records, checkpointHistory)
        : { initial: [], steps: [], through: -1, note: `the state at a step needs the run from its first step, which this file does not hold: aop state --run-id ${run.run_id} --at N` };
  }
  const data: ReportData = {
    format: REPORT_FORMAT,
    generated_at: nowIso(clock),
    aop_version: ports.version,
    workspace: { name: path.basename(layout.root), root: layout.root },
    scope: { run_ids: options.runIds, since: options.since, live: options.live },
    runs: runs.runs,
    timelines: runs.timelines,
    ledger: ledger.ledger,
    features,
    checkpoints,
    doctor,
    states,
    notes,
  };
  return { data, records: runs.records, cursors: runs.cursors };
}
