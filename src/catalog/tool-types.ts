// The contract between the ToolRuntime pipeline and the domain handlers.
// A handler receives validated arguments and a context, returns the `data` payload (validated against
// the tool's output schema) or throws an AopError. Handlers never write timeline or ledger entries.
import type { Clock } from "../core/clock.js";
import type { Policy, Role } from "../config/policy-types.js";
import type { WorkspaceLayout } from "../store/layout.js";
import type { ToolArgsMap, ToolResultMap } from "./generated/tool-types.js";

/** Every tool of the catalog (the generated types list them). */
export type ToolName = keyof ToolArgsMap;
/** A tool's arguments as its input schema admits them (generated from schemas/input/ at build time). */
export type ToolArgs<N extends ToolName> = ToolArgsMap[N];
/** A tool's `data` as its output schema admits it (generated from schemas/output/ at build time). */
export type ToolResult<N extends ToolName> = ToolResultMap[N];

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
   * Aborted when the call is cancelled or interrupted (the MCP client cancelled it or went away, SIGTERM,
   * SIGINT). Long handlers stop their work and throw `operation_cancelled`; such a call is not recorded in
   * the ledger, so a retry runs it again.
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
type ToolRecovery<N extends ToolName> = (args: ToolArgs<N>, effects: readonly LandedEffect[], ctx: ToolContext) => Promise<ToolResult<N> | null>;

/** A domain's recoveries, typed by tool name like its handlers. */
export type ToolRecoveries = { [N in ToolName]?: ToolRecovery<N> };

/** The handler of one tool, typed by its name: its arguments and result are the schemas' types. */
export type ToolHandler<N extends ToolName> = (args: ToolArgs<N>, ctx: ToolContext) => Promise<ToolResult<N>>;

/** A domain's handlers: each key a tool name, each value typed by it (`satisfies ToolHandlers`). */
export type ToolHandlers = { [N in ToolName]?: ToolHandler<N> };

/**
 * A handler as the pipeline calls it. The pipeline validates the arguments against the tool's input
 * schema before the call and the result against its output schema after it, which is exactly what
 * ToolArgs and ToolResult are generated from; `pipelineHandler` (src/app/handler-registry.ts) is the
 * one place a handler's type is widened. (This module holds types only, so importing it loads nothing.)
 */
export type PipelineHandler = (args: Record<string, unknown>, ctx: ToolContext) => Promise<unknown>;

/** A recovery as the pipeline calls it (widened, like PipelineHandler, in src/app/handler-registry.ts). */
export type PipelineRecovery = (args: Record<string, unknown>, effects: readonly LandedEffect[], ctx: ToolContext) => Promise<unknown>;

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
