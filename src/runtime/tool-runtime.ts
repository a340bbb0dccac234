// The one pipeline every tool call goes through (DESIGN §3.2):
// lookup → role check → input schema → idempotency → handler → output schema → ledger → timeline.
// It knows nothing of MCP or the CLI; transports are thin adapters over `callTool`.
import { AopError, envelopeFromError, errorEnvelope, type Envelope } from "../core/errors.js";
import type { Clock } from "../core/clock.js";
import { nowIso } from "../core/clock.js";
import { canonicalJson } from "../core/canonical-json.js";
import { hashCanonical } from "../core/hash.js";
import { configInvalid, loadPolicyTolerant } from "../config/policy-loader.js";
import type { ConfigProblem, Policy } from "../config/policy-types.js";
import type { WorkspaceLayout } from "../store/layout.js";
import { loadValidator } from "../catalog/load-validator.js";
import { schemaProblems } from "../catalog/schema-problems.js";
import { loadCatalog, similarToolNames, validatorName, type Catalog } from "../catalog/catalog.js";
import { IdempotencyLedger } from "./idempotency-ledger.js";
import { resolveIdentity, type ActiveRunId, type IdentityOverrides } from "./run-context.js";
import type { CompletedCall, IdempotencyStatus, TimelineHook } from "../catalog/timeline-hook.js";
import type { CatalogEntry, ToolContext, ToolHandler } from "../catalog/tool-types.js";

export const MAX_ARGUMENT_BYTES = 1024 * 1024;

/** Finds the handler of a tool (the composition root supplies one that loads domains lazily). */
export type HandlerLoader = (toolName: string) => Promise<ToolHandler | undefined>;

export interface CallResult {
  envelope: Envelope;
  /** The envelope's JSON text; for a replay, the recorded bytes. */
  envelope_json: string;
  idempotency_status: IdempotencyStatus;
  request_hash: string | null;
}

export interface ToolRuntimeOptions {
  layout: WorkspaceLayout;
  clock: Clock;
  /** Defaults to loading the workspace policy (tolerantly) on first call. */
  policy?: Policy;
  /** Problems found while loading `policy`: every call but the doctor's fails with config_invalid. */
  policyProblems?: ConfigProblem[];
  catalog?: Catalog;
  handlerLoader: HandlerLoader;
  /** The run a call belongs to when nothing names one (the active run lease); default: none. */
  activeRunId?: ActiveRunId;
  /** Tools that still run when the policy is invalid (every other call fails with config_invalid). */
  runsWithInvalidPolicy?: ReadonlySet<string>;
  timelineHook?: TimelineHook;
  /** Identity defaults for every call (CLI flags, MCP server options). */
  identity?: IdentityOverrides;
  env?: NodeJS.ProcessEnv;
  warn?: (message: string) => void;
}

export interface CallOptions {
  /** Receives the handler's progress events (long work: gates, chain verification). */
  onProgress?: (event: unknown) => void;
}

interface Stage {
  status: IdempotencyStatus;
  requestHash: string | null;
}

export class ToolRuntime {
  readonly layout: WorkspaceLayout;
  readonly clock: Clock;
  private policy: { policy: Policy; problems: ConfigProblem[] } | undefined;
  private readonly catalog: Catalog;
  private readonly handlerLoader: HandlerLoader;
  private readonly ledger: IdempotencyLedger;
  private readonly options: ToolRuntimeOptions;
  private readonly warn: (message: string) => void;

  constructor(options: ToolRuntimeOptions) {
    this.options = options;
    this.layout = options.layout;
    this.clock = options.clock;
    this.policy = options.policy ? { policy: options.policy, problems: options.policyProblems ?? [] } : undefined;
    this.catalog = options.catalog ?? loadCatalog();
    this.handlerLoader = options.handlerLoader;
    this.ledger = new IdempotencyLedger(options.layout);
    this.warn = options.warn ?? ((m) => void process.stderr.write(`warning: ${m}\n`));
  }

  listTools(): CatalogEntry[] {
    return this.catalog.tools;
  }

  private async getPolicy(toolName: string): Promise<Policy> {
    if (!this.policy) {
      const loaded = await loadPolicyTolerant(this.layout);
      this.policy = { policy: loaded.policy, problems: loaded.problems };
    }
    if (this.policy.problems.length > 0 && !this.options.runsWithInvalidPolicy?.has(toolName)) throw configInvalid(this.policy.problems);
    return this.policy.policy;
  }

  async callTool(toolName: string, args: unknown, identity: IdentityOverrides = {}, options: CallOptions = {}): Promise<CallResult> {
    const started = performance.now();
    const stage: Stage = { status: "none", requestHash: null };
    let entry: CatalogEntry | undefined;
    let call: ToolContext["call"] | undefined;
    let result: CallResult;
    try {
      call = resolveIdentity(this.layout, this.clock, mergeIdentity(this.options.identity, identity), this.options.env, this.options.activeRunId);
      entry = this.catalog.get(toolName);
      if (!entry) {
        const similar = similarToolNames(this.catalog, toolName);
        throw new AopError("unknown_tool", `unknown tool '${toolName}'`, { details: { tool_name: toolName, similar }, hint: similar.length ? `did you mean ${similar.join(", ")}?` : "list tools with `aop tools`" });
      }
      const policy = await this.getPolicy(entry.name);
      checkRole(entry, policy, call.actor_type);
      const validArgs = await validateInput(entry, args);
      result = entry.mutating ? await this.callMutating(entry, validArgs, policy, call, stage, options) : await this.execute(entry, validArgs, policy, call, null, options);
    } catch (err) {
      const envelope = envelopeFromError(err);
      result = { envelope, envelope_json: JSON.stringify(envelope), idempotency_status: stage.status, request_hash: stage.requestHash };
    }
    return this.finish(toolName, entry, call, args, result, performance.now() - started);
  }

  private async callMutating(entry: CatalogEntry, args: Record<string, unknown>, policy: Policy, call: ToolContext["call"], stage: Stage, options: CallOptions): Promise<CallResult> {
    const operationId = args.operation_id as string;
    const requestHash = requestHashOf(entry.name, args);
    stage.requestHash = requestHash;
    return this.ledger.exclusive(operationId, async (existing) => {
      if (existing) {
        if (existing.request_hash === requestHash && existing.tool_name === entry.name) {
          return { envelope: JSON.parse(existing.envelope_json) as Envelope, envelope_json: existing.envelope_json, idempotency_status: "replay", request_hash: requestHash };
        }
        stage.status = "mismatch";
        throw new AopError("operation_id_reuse_mismatch", `operation_id '${operationId}' was already used for a different ${existing.tool_name === entry.name ? "request" : `tool (${existing.tool_name})`}`, {
          details: { operation_id: operationId, recorded_request_hash: existing.request_hash, request_hash: requestHash, recorded_tool_name: existing.tool_name },
          hint: "use a new operation_id for a different request",
        });
      }
      const result = await this.execute(entry, args, policy, call, operationId, options);
      // A lock timeout is transient: leave it unrecorded so a retry runs again.
      if (result.envelope.ok || result.envelope.error.code !== "lock_timeout") {
        this.ledger.write({ operation_id: operationId, tool_name: entry.name, request_hash: requestHash, run_id: call.run_id, recorded_at: nowIso(this.clock), envelope_json: result.envelope_json });
      }
      return { ...result, idempotency_status: "new", request_hash: requestHash };
    });
  }

  private async execute(entry: CatalogEntry, args: Record<string, unknown>, policy: Policy, call: ToolContext["call"], operationId: string | null, options: CallOptions): Promise<CallResult> {
    let envelope: Envelope;
    try {
      const handler = await this.handlerLoader(entry.name);
      if (!handler) throw new AopError("internal_error", `no handler for tool '${entry.name}'`);
      const ctx: ToolContext = { layout: this.layout, clock: this.clock, policy, tool_name: entry.name, call, operation_id: operationId, warn: this.warn, ...(options.onProgress ? { progress: options.onProgress } : {}) };
      const data = await handler(args, ctx);
      envelope = await checkedSuccess(entry, data);
    } catch (err) {
      envelope = await checkedError(err);
    }
    return { envelope, envelope_json: JSON.stringify(envelope), idempotency_status: "none", request_hash: null };
  }

  private async finish(toolName: string, entry: CatalogEntry | undefined, call: ToolContext["call"] | undefined, args: unknown, result: CallResult, latencyMs: number): Promise<CallResult> {
    const hook = this.options.timelineHook;
    if (!hook || !call) return result;
    const record: CompletedCall = {
      completed_at: this.clock.now(),
      identity: call,
      tool_name: toolName,
      mutating: entry?.mutating ?? false,
      feature_id: featureIdOf(args),
      operation_id: entry?.mutating ? operationIdOf(args) : null,
      idempotency_status: result.idempotency_status,
      request_hash: entry?.mutating ? result.request_hash : null,
      envelope: result.envelope,
      latency_ms: Math.round(latencyMs * 1000) / 1000,
    };
    try {
      await hook(record);
      return result;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const envelope = errorEnvelope("replay_timeline_write_failed", `the call completed but its timeline entry could not be written: ${message}`, { tool_name: toolName, completed: result.envelope.ok });
      return { ...result, envelope, envelope_json: JSON.stringify(envelope) };
    }
  }
}

/** Per-call overrides win over the runtime's defaults, field by field. */
function mergeIdentity(defaults: IdentityOverrides | undefined, call: IdentityOverrides): IdentityOverrides {
  return {
    run_id: call.run_id ?? defaults?.run_id,
    session_id: call.session_id ?? defaults?.session_id,
    actor: call.actor ?? defaults?.actor,
  };
}

function checkRole(entry: CatalogEntry, policy: Policy, actor: ToolContext["call"]["actor_type"]): void {
  const granted = policy.rbac[actor]?.includes(entry.name) ?? false;
  const supported = entry.supported_roles.includes(actor);
  if (!granted || !supported) {
    throw new AopError("forbidden_tool_for_role", `role '${actor}' may not call ${entry.name}`, {
      details: { tool_name: entry.name, role: actor, granted_by_policy: granted, supported_by_catalog: supported },
      hint: supported ? "grant it in policy.yaml rbac, or call as another role (--actor)" : `the tool supports roles: ${entry.supported_roles.join(", ")}`,
    });
  }
}

async function validateInput(entry: CatalogEntry, args: unknown): Promise<Record<string, unknown>> {
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new AopError("invalid_argument", `arguments for ${entry.name} must be a JSON object`, { details: { tool_name: entry.name } });
  }
  let text: string;
  try {
    // Mutating calls are fingerprinted, so they must be exactly representable (RFC 8785 rejects NaN, cycles...).
    text = entry.mutating ? canonicalJson(args) : JSON.stringify(args);
  } catch (err) {
    throw new AopError("invalid_argument", `arguments for ${entry.name} are not valid JSON: ${(err as Error).message}`);
  }
  // A UTF-16 unit is at most 3 UTF-8 bytes: count bytes only when it could matter.
  const size = text.length * 3 > MAX_ARGUMENT_BYTES ? Buffer.byteLength(text) : text.length;
  if (size > MAX_ARGUMENT_BYTES) {
    throw new AopError("payload_too_large", `arguments for ${entry.name} are ${size} bytes; the limit is ${MAX_ARGUMENT_BYTES}`, { details: { bytes: size, limit: MAX_ARGUMENT_BYTES } });
  }
  const record = args as Record<string, unknown>;
  if (record.operation_id === "") {
    throw new AopError("invalid_argument", `operation_id is empty; an empty value does not mean "not set"`, { details: { tool_name: entry.name, field: "operation_id" }, hint: "pass a unique operation_id of 8–256 characters, or leave it out where it is optional" });
  }
  if (entry.requires_operation_id && record.operation_id === undefined) {
    throw new AopError("operation_id_required", `${entry.name} changes state and needs an operation_id (8–256 characters)`, { details: { tool_name: entry.name }, hint: "pass a unique operation_id; retrying with the same one replays the result instead of running twice" });
  }
  const validate = await loadValidator(validatorName(entry.input_schema_ref));
  if (!validate(record)) {
    const problems = schemaProblems(validate.errors ?? []);
    const first = problems[0];
    throw new AopError("invalid_argument", `invalid arguments for ${entry.name}: ${first ? `${first.path || "(root)"} ${first.message}` : "schema violation"}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}`, {
      details: { tool_name: entry.name, errors: problems },
    });
  }
  return record;
}

async function checkedSuccess(entry: CatalogEntry, data: unknown): Promise<Envelope> {
  const validate = await loadValidator(validatorName(entry.output_schema_ref));
  if (!validate(data)) {
    const problems = schemaProblems(validate.errors ?? []);
    return errorEnvelope("internal_error", `${entry.name} produced output that violates its schema`, { tool_name: entry.name, errors: problems });
  }
  return { ok: true, data };
}

async function checkedError(err: unknown): Promise<Envelope> {
  const envelope = envelopeFromError(err);
  const validate = await loadValidator("envelope/error");
  if (!validate(envelope)) return errorEnvelope("internal_error", "a handler failed with a malformed error", { original: String(err) });
  return envelope;
}

/** sha256(JCS({tool_name, arguments})), with the operation id itself excluded from the arguments. */
export function requestHashOf(toolName: string, args: Record<string, unknown>): string {
  const { operation_id: _omit, ...rest } = args;
  return hashCanonical({ tool_name: toolName, arguments: rest });
}

function featureIdOf(args: unknown): string | null {
  const v = args && typeof args === "object" ? (args as Record<string, unknown>).feature_id : undefined;
  return typeof v === "string" ? v : null;
}

function operationIdOf(args: unknown): string | null {
  const v = args && typeof args === "object" ? (args as Record<string, unknown>).operation_id : undefined;
  return typeof v === "string" ? v : null;
}
