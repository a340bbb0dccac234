// The doctor's check contract: one module per check, `{id, severity, title, remediation, run}`, held by
// the family of the domain it belongs to.
// The engine discovers, orders (lexical id) and runs checks; a check only reads files.
import type { Clock } from "../../core/clock.js";
import type { ConfigProblem, Policy } from "../../config/policy-types.js";
import type { WorkspaceLayout } from "../../store/layout.js";

export type Severity = "critical" | "warning" | "info";

export const SEVERITY_RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

/** A finding as written in the report. `id` is the check's id. */
export interface Finding {
  id: string;
  severity: Severity;
  message: string;
  remediation: string;
  refs: string[];
}

/** What a check returns per problem; severity and remediation default to the check's own. */
export interface FindingDraft {
  message: string;
  severity?: Severity;
  remediation?: string;
  /** Workspace-relative paths (or ids) the finding is about. */
  refs?: string[];
  /** The owning domain's own record of the finding, for a presenter with its own format (never in the report). */
  subject?: unknown;
}

export interface CheckResult {
  findings: FindingDraft[];
  /** Shown as an `[OK]` line by doctors that print passing checks (the continuity doctor). */
  okMessage?: string;
}

export interface DoctorContext {
  layout: WorkspaceLayout;
  clock: Clock;
  /** Loaded with the tolerant loader: a broken policy is a finding, never a crash. */
  policy: Policy;
  policyProblems: ConfigProblem[];
  env: NodeJS.ProcessEnv;
  homeDir: string;
  /** `--transcripts DIR` for the continuity checks. */
  transcriptsDir?: string;
  /** Problems of the tool surface (catalog, handlers, schemas); supplied by the composition root. */
  selfCheck?: () => Promise<string[]>;
  /**
   * A monotonic time (core/clock.ts monotonicMs) at which a search that grows with the workspace stops
   * and says so: the hook's SessionStart must answer within its watchdog. `aop doctor` sets none.
   */
  searchUntil?: number;
  /** Memoised reads shared by the checks of one run (e.g. the parsed CURRENT_STATE.md). */
  memo<T>(key: string, compute: () => T): T;
}

export interface DoctorCheck {
  id: string;
  severity: Severity;
  title: string;
  remediation: string;
  run(ctx: DoctorContext): CheckResult | Promise<CheckResult>;
}

/**
 * A family of checks, owned by one domain: its name (for `aop doctor --only`), whether it applies to a
 * workspace (continuity needs memory/, checkpoints .checkpoints/), and its checks.
 */
export interface DoctorFamily {
  name: string;
  applies(ctx: DoctorContext): boolean;
  checks: readonly DoctorCheck[];
}

/** A context builder for tests and for commands that run a single family. */
export function createDoctorContext(init: Omit<DoctorContext, "memo">): DoctorContext {
  const memos = new Map<string, unknown>();
  return {
    ...init,
    memo<T>(key: string, compute: () => T): T {
      if (!memos.has(key)) memos.set(key, compute());
      return memos.get(key) as T;
    },
  };
}

/** Draft → report finding, filling the check's defaults. */
export function toFinding(check: DoctorCheck, draft: FindingDraft): Finding {
  return {
    id: check.id,
    severity: draft.severity ?? check.severity,
    message: draft.message,
    remediation: draft.remediation ?? check.remediation,
    refs: draft.refs ?? [],
  };
}
