// The contract between the ToolRuntime pipeline and the domain handlers.
// A handler receives validated arguments and a context, returns the `data` payload (validated against
// the tool's output schema) or throws an AopError. Handlers never write timeline or ledger entries.
import type { Clock } from "../core/clock.js";
import type { Policy, Role } from "../config/policy-types.js";
import type { WorkspaceLayout } from "../store/layout.js";

export interface CallIdentity {
  run_id: string;
  session_id: string | null;
  actor_type: Role;
}

export interface ToolContext {
  layout: WorkspaceLayout;
  clock: Clock;
  policy: Policy;
  tool_name: string;
  call: CallIdentity;
  /** Present for mutating calls. */
  operation_id: string | null;
  /** Non-fatal messages for the operator (stderr on the CLI, server log over MCP). */
  warn(message: string): void;
  /** Live progress of long work, when the caller listens (the in-process CLI on a terminal). */
  progress?: (event: unknown) => void;
  /**
   * Aborted when the call is interrupted (the MCP client went away, SIGTERM, SIGINT). Long handlers stop
   * their work and throw `operation_interrupted`; such a call is not recorded, so a retry runs it again.
   */
  signal?: AbortSignal;
}

/** An effect an interrupted call had noted, and whether it reached the disk (see docs/kernel.md). */
export interface LandedEffect {
  kind: "write" | "create" | "append" | "move" | "scratch";
  /** Workspace-relative path. */
  path: string;
  state: "applied" | "not_applied" | "changed_since";
}

/**
 * Finishes a call that was killed after some of its effects landed, when the tool knows how (the retry
 * then returns the result instead of `operation_interrupted`). Returns the call's `data`, or null when it
 * cannot tell. It must only complete what the killed call started, never apply the change a second time.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolRecovery = (args: any, effects: readonly LandedEffect[], ctx: ToolContext) => Promise<unknown | null>;

export type ToolRecoveries = Record<string, ToolRecovery>;

// Arguments arrive already validated against the tool's input schema, so handlers may narrow the type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolHandler = (args: any, ctx: ToolContext) => Promise<unknown>;

export type ToolHandlers = Record<string, ToolHandler>;

/** One entry of catalog.json. */
export interface CatalogEntry {
  name: string;
  title: string;
  description: string;
  input_schema_ref: string;
  output_schema_ref: string;
  supported_roles: Role[];
  mutating: boolean;
  requires_operation_id: boolean;
}
