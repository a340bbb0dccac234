// Deterministic trace and span ids (docs/otel.md, "Ids"): re-exporting a run from the same workspace
// yields the same ids, so a backend that receives a span twice sees one span. Every id includes the
// workspace id (DESIGN §20): run ids repeat across workspaces (`run:demo`, `adhoc-<date>`), traces must
// not. Pure.
import { AopError } from "../../core/errors.js";
import { sha256Hex } from "../../core/hash.js";
import { isWorkspaceId } from "../../core/ids.js";

/** The workspace id as a hash input; refused when it is not one (a run id passed by mistake would still hash). */
function ws(workspaceId: string): string {
  if (!isWorkspaceId(workspaceId)) throw new AopError("invalid_argument", `workspace id must be 32 lowercase hex characters (got '${workspaceId.slice(0, 40)}')`);
  return workspaceId;
}

/** First 16 bytes of sha256("aop:" + workspace_id + ":" + run_id), as 32 lowercase hex characters. */
export function traceIdFor(workspaceId: string, runId: string): string {
  return sha256Hex(`aop:${ws(workspaceId)}:${runId}`).slice(0, 32);
}

/** An entry's span: first 8 bytes of sha256(workspace_id + ":" + run_id + ":" + sequence), as 16 lowercase hex characters. */
export function entrySpanId(workspaceId: string, runId: string, sequence: number): string {
  return sha256Hex(`${ws(workspaceId)}:${runId}:${sequence}`).slice(0, 16);
}

// The spans aop adds around entries hash inputs that no sequence can produce (a sequence is digits).

/** The run's root span (invoke_agent / invoke_workflow). */
export function rootSpanId(workspaceId: string, runId: string): string {
  return sha256Hex(`${ws(workspaceId)}:${runId}:root`).slice(0, 16);
}

/** A Claude Code subagent's span, parent of its calls. */
export function agentSpanId(workspaceId: string, runId: string, agentId: string): string {
  return sha256Hex(`${ws(workspaceId)}:${runId}:agent:${agentId}`).slice(0, 16);
}

/** The span of step `index` (0-based, evidence order) of the gate run recorded at `sequence`. */
export function stepSpanId(workspaceId: string, runId: string, sequence: number, index: number): string {
  return sha256Hex(`${ws(workspaceId)}:${runId}:${sequence}:step:${index}`).slice(0, 16);
}
