// What the pipeline tells the timeline after every call, once the response is final.
import type { Envelope } from "../core/errors.js";
import type { IdempotencyStatus } from "./timeline-entry.js";
import type { CallIdentity } from "./tool-types.js";

export type { IdempotencyStatus };

export interface CompletedCall {
  /** When the response became final (epoch ms, from the runtime's clock). */
  completed_at: number;
  identity: CallIdentity;
  tool_name: string;
  mutating: boolean;
  feature_id: string | null;
  operation_id: string | null;
  idempotency_status: IdempotencyStatus;
  /** sha256 of JCS({tool_name, arguments}) for mutating calls, null for read-only ones. */
  request_hash: string | null;
  envelope: Envelope;
  latency_ms: number;
  /**
   * The client's own id for this call when the client's session records it (Claude Code's
   * `tool_use_id`): the entry is left for that session to file instead of being appended here.
   */
  handoff_id?: string;
}

/**
 * Receives every call after its response is final. Throwing fails the call with
 * `replay_timeline_write_failed` (used by `write_mode: required`); a best-effort hook must not throw.
 */
export type TimelineHook = (call: CompletedCall) => Promise<void>;
