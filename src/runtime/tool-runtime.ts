// The one pipeline every tool call goes through (docs/kernel.md):
// lookup → role check → input schema → idempotency → handler → output schema → ledger → timeline.
// It knows nothing of MCP or the CLI; transports are thin adapters over `callTool`.
import { AopError, envelopeFromError, errorEnvelope, type Envelope } from "../core/errors.js";
import type { Clock } from "../core/clock.js";
import { monotonicMs, nowIso } from "../core/clock.js";
import { configInvalid } from "../config/config-invalid.js";
import { loadPolicyTolerant } from "../config/policy-loader.js";
import type { ConfigProblem, Policy } from "../config/policy-types.js";
import type { WorkspaceLayout } from "../store/layout.js";
import { withEffectSink } from "../store/effect-journal.js";
import type { LedgerRecord } from "../store/ledger-files.js";
import { loadCatalog, similarToolNames, type Catalog } from "../catalog/catalog.js";
import { IdempotencyLedger, type InterruptedCall } from "./idempotency-ledger.js";
import { resolveIdentity, type ActiveRunId, type IdentityOverrides } from "./run-context.js";
import type { CompletedCall, IdempotencyStatus, TimelineHook } from "../catalog/timeline-hook.js";
import type { CatalogEntry, PipelineHandler, PipelineRecovery, ToolContext } from "../catalog/tool-types.js";
import { checkedError, checkedSuccess, checkRole, featureIdOf, operationIdOf, requestHashOf, validateInput } from "./call-checks.js";
import { FILE_FAULT_CODES, interruptedEnvelope, killedCallRecord, landedEffects, notRecorded, UNSETTLED_CODES } from "./interrupted-call.js";

export { requestHashOf } from "./call-checks.js";

/** Finds the handler of a tool (the composition root supplies one that loads domains lazily). */
export type HandlerLoader = (toolName: string) => Promise<PipelineHandler | undefined>;

/** Finds how a tool finishes a call killed half way, if it can (see docs/kernel.md, "Crash safety"). */
export type RecoveryLoader = (toolName: string) => Promise<PipelineRecovery | undefined>;

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
  /** Default: no tool finishes a killed call (a retry that finds changes answers operation_interrupted). */
  recoveryLoader?: RecoveryLoader;
  /** The run a call belongs to when nothing names one (the active run lease); default: none. */
  activeRunId?: ActiveRunId;
  /** Tools that still run when the policy is invalid (every other call fails with config_invalid). */
  runsWithInvalidPolicy?: ReadonlySet<string>;
  timelineHook?: TimelineHook;
  /** Identity defaults for every call (CLI flags, MCP server options). */
  identity?: IdentityOverrides;
  env?: NodeJS.ProcessEnv;
  warn?: (message: string) => void;
  /** Interrupts every call in flight when aborted (`aop mcp`: the client went away, SIGTERM, SIGINT). */
  signal?: AbortSignal;
}

export interface CallOptions {
  /** Receives the handler's progress events (long work: gates, chain verification). */
  onProgress?: (event: unknown) => void;
  /** Interrupts this call when aborted (the CLI on SIGINT/SIGTERM). */
  signal?: AbortSignal;
  /** The client's id for the call, when the client's session files the timeline entry (see CompletedCall). */
  handoffId?: string;
}

interface Stage {
  status: IdempotencyStatus;
  requestHash: string | null;
  /** A killed earlier attempt of this operation that this call found: it gets its timeline entry first. */
  killed?: CompletedCall;
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
  private readonly inFlight = new Set<Promise<unknown>>();

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

  /** Resolves once no call is in flight, or after `timeoutMs` (a server shutting down waits for its calls). */
  async whenIdle(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.allSettled([...this.inFlight]).then(() => undefined), timeout]);
    clearTimeout(timer);
  }

  callTool(toolName: string, args: unknown, identity: IdentityOverrides = {}, options: CallOptions = {}): Promise<CallResult> {
    const call = this.runCall(toolName, args, identity, options);
    this.inFlight.add(call);
    void call.finally(() => this.inFlight.delete(call));
    return call;
  }

  private async runCall(toolName: string, args: unknown, identity: IdentityOverrides, options: CallOptions): Promise<CallResult> {
    const started = monotonicMs();
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
      const ctx = this.contextFor(entry, policy, call, options);
      result = entry.mutating ? await this.callMutating(entry, validArgs, ctx, stage) : await this.execute(entry, validArgs, ctx);
    } catch (err) {
      const envelope = envelopeFromError(err);
      result = { envelope, envelope_json: JSON.stringify(envelope), idempotency_status: stage.status, request_hash: stage.requestHash };
    }
    return this.finish(toolName, entry, call, args, result, stage, monotonicMs() - started, options.handoffId);
  }

  private contextFor(entry: CatalogEntry, policy: Policy, call: ToolContext["call"], options: CallOptions): ToolContext {
    const signals = [this.options.signal, options.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    return { layout: this.layout, clock: this.clock, policy, tool_name: entry.name, call, operation_id: null, warn: this.warn, ...(options.onProgress ? { progress: options.onProgress } : {}), ...(signal ? { signal } : {}) };
  }

  /**
   * The mutating path (docs/kernel.md, "Crash safety"): under the operation's lock, a record replays; an
   * intent left by a killed attempt is assessed (run again when nothing of it landed, finished by the tool
   * when it can, else refused with operation_interrupted); a new call writes its intent, runs with its
   * effects noted, and records the final envelope.
   */
  private async callMutating(entry: CatalogEntry, args: Record<string, unknown>, baseCtx: ToolContext, stage: Stage): Promise<CallResult> {
    const operationId = args.operation_id as string;
    const requestHash = requestHashOf(entry.name, args);
    stage.requestHash = requestHash;
    const ctx: ToolContext = { ...baseCtx, operation_id: operationId };
    const retention = ctx.policy.idempotency.retention;
    return this.ledger.exclusive(operationId, async (found) => {
      if (found.kind !== "none") {
        const recorded = found.kind === "record" ? found.record : found.intent;
        if (recorded.request_hash !== requestHash || recorded.tool_name !== entry.name) {
          stage.status = "mismatch";
          throw new AopError("operation_id_reuse_mismatch", `operation_id '${operationId}' was already used for a different ${recorded.tool_name === entry.name ? "request" : `tool (${recorded.tool_name})`}`, {
            details: { operation_id: operationId, recorded_request_hash: recorded.request_hash, request_hash: requestHash, recorded_tool_name: recorded.tool_name },
            hint: "use a new operation_id for a different request",
          });
        }
      }
      if (found.kind === "record") {
        return { envelope: JSON.parse(found.record.envelope_json) as Envelope, envelope_json: found.record.envelope_json, idempotency_status: "replay", request_hash: requestHash };
      }
      const record = (envelope_json: string): LedgerRecord => ({ operation_id: operationId, tool_name: entry.name, request_hash: requestHash, run_id: ctx.call.run_id, recorded_at: nowIso(this.clock), envelope_json });
      if (found.kind === "intent") {
        const killed = this.ledger.assess(found);
        stage.killed = killedCallRecord(killed, this.clock.now());
        if (killed.nothingLanded) this.ledger.discard(killed);
        else {
          const { envelope, settled } = await this.settleKilled(entry, args, ctx, killed);
          const envelope_json = JSON.stringify(envelope);
          if (settled) this.ledger.record(record(envelope_json), retention);
          return { envelope, envelope_json, idempotency_status: "new", request_hash: requestHash };
        }
      }
      const journal = this.ledger.begin({ operation_id: operationId, tool_name: entry.name, request_hash: requestHash, run_id: ctx.call.run_id, session_id: ctx.call.session_id, actor_type: ctx.call.actor_type, feature_id: featureIdOf(args), started_at: nowIso(this.clock) });
      let result: CallResult;
      try {
        result = await withEffectSink(journal, () => this.execute(entry, args, ctx));
      } finally {
        journal.close();
      }
      const code = result.envelope.ok ? null : result.envelope.error.code;
      if (code !== null && (UNSETTLED_CODES.has(code) || FILE_FAULT_CODES.has(code))) {
        const attempt = this.ledger.assess({ kind: "intent", intent: journal.intent, effects: journal.notes });
        if (attempt.nothingLanded) {
          this.ledger.discard(attempt);
          return { ...result, idempotency_status: "new", request_hash: requestHash };
        }
        if (UNSETTLED_CODES.has(code)) return { ...result, idempotency_status: "new", request_hash: requestHash };
      }
      try {
        this.ledger.record(record(result.envelope_json), retention);
      } catch (err) {
        throw notRecorded(entry.name, result.envelope.ok, err);
      }
      return { ...result, idempotency_status: "new", request_hash: requestHash };
    });
  }

  /**
   * The outcome of a killed call some of whose effects landed: finished by its tool if it can, else refused.
   * `settled: false` (the finishing was itself interrupted or timed out on a lock) leaves it open.
   */
  private async settleKilled(entry: CatalogEntry, args: Record<string, unknown>, ctx: ToolContext, killed: InterruptedCall): Promise<{ envelope: Envelope; settled: boolean }> {
    const recover = await this.options.recoveryLoader?.(entry.name);
    if (recover) {
      const journal = this.ledger.begin(killed.intent, { continuing: true });
      let envelope: Envelope | null = null;
      try {
        const data = await withEffectSink(journal, () => recover(args, landedEffects(killed), ctx));
        if (data !== null) envelope = await checkedSuccess(entry, data);
      } catch (err) {
        envelope = await checkedError(err);
      } finally {
        journal.close();
      }
      if (envelope) return { envelope, settled: envelope.ok || !UNSETTLED_CODES.has(envelope.error.code) };
    }
    return { envelope: interruptedEnvelope(killed), settled: true };
  }

  private async execute(entry: CatalogEntry, args: Record<string, unknown>, ctx: ToolContext): Promise<CallResult> {
    let envelope: Envelope;
    try {
      const handler = await this.handlerLoader(entry.name);
      if (!handler) throw new AopError("internal_error", `no handler for tool '${entry.name}'`);
      const data = await handler(args, ctx);
      envelope = await checkedSuccess(entry, data);
    } catch (err) {
      envelope = await checkedError(err);
    }
    return { envelope, envelope_json: JSON.stringify(envelope), idempotency_status: "none", request_hash: null };
  }

  private async finish(toolName: string, entry: CatalogEntry | undefined, call: ToolContext["call"] | undefined, args: unknown, result: CallResult, stage: Stage, latencyMs: number, handoffId: string | undefined): Promise<CallResult> {
    const hook = this.options.timelineHook;
    if (!hook || !call) return result;
    if (stage.killed) {
      try {
        await hook(stage.killed);
      } catch (err) {
        this.warn(`could not write the timeline entry of the interrupted ${stage.killed.tool_name} call: ${(err as Error).message}`);
      }
    }
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
      ...(handoffId !== undefined ? { handoff_id: handoffId } : {}),
    };
    try {
      await hook(record);
      return result;
    } catch (err) {
      const envelope = timelineFailure(toolName, result.envelope, err);
      return { ...result, envelope, envelope_json: JSON.stringify(envelope) };
    }
  }
}

/** `required` write mode: the call's own outcome stays visible beside the timeline failure. */
function timelineFailure(toolName: string, outcome: Envelope, err: unknown): Envelope {
  const message = err instanceof Error ? err.message : String(err);
  const what = outcome.ok ? "succeeded (its effect is in place)" : `failed with ${outcome.error.code}`;
  return errorEnvelope("replay_timeline_write_failed", `${toolName} ${what}, but its timeline entry could not be written: ${message}`, {
    tool_name: toolName,
    completed: outcome.ok,
    timeline_written: false,
    ...(outcome.ok ? {} : { call_error: { code: outcome.error.code, message: outcome.error.message } }),
  });
}

/** Per-call overrides win over the runtime's defaults, field by field. */
function mergeIdentity(defaults: IdentityOverrides | undefined, call: IdentityOverrides): IdentityOverrides {
  return {
    run_id: call.run_id ?? defaults?.run_id,
    session_id: call.session_id ?? defaults?.session_id,
    actor: call.actor ?? defaults?.actor,
  };
}

