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
}

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
