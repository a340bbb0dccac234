// The pipeline's checks around a handler: the role, the arguments (object, size, operation id, schema),
// the output against its schema and a handler's error against the envelope schema.
import { AopError, envelopeFromError, errorEnvelope, type Envelope } from "../core/errors.js";
import { canonicalJson } from "../core/canonical-json.js";
import { hashCanonical } from "../core/hash.js";
import type { Policy } from "../config/policy-types.js";
import { loadValidator } from "../catalog/load-validator.js";
import { schemaProblems } from "../catalog/schema-problems.js";
import { validatorName } from "../catalog/catalog.js";
import type { CatalogEntry, ToolContext } from "../catalog/tool-types.js";

const MAX_ARGUMENT_BYTES = 1024 * 1024;

export function checkRole(entry: CatalogEntry, policy: Policy, actor: ToolContext["call"]["actor_type"]): void {
  const granted = policy.rbac[actor]?.includes(entry.name) ?? false;
  const supported = entry.supported_roles.includes(actor);
  if (!granted || !supported) {
    throw new AopError("forbidden_tool_for_role", `role '${actor}' may not call ${entry.name}`, {
      details: { tool_name: entry.name, role: actor, granted_by_policy: granted, supported_by_catalog: supported },
      hint: supported ? "grant it in policy.yaml rbac, or call as another role (--actor)" : `the tool supports roles: ${entry.supported_roles.join(", ")}`,
    });
  }
}

export async function validateInput(entry: CatalogEntry, args: unknown): Promise<Record<string, unknown>> {
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

export async function checkedSuccess(entry: CatalogEntry, data: unknown): Promise<Envelope> {
  const validate = await loadValidator(validatorName(entry.output_schema_ref));
  if (!validate(data)) {
    const problems = schemaProblems(validate.errors ?? []);
    return errorEnvelope("internal_error", `${entry.name} produced output that violates its schema`, { tool_name: entry.name, errors: problems });
  }
  return { ok: true, data };
}

export async function checkedError(err: unknown): Promise<Envelope> {
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

export function featureIdOf(args: unknown): string | null {
  const v = args && typeof args === "object" ? (args as Record<string, unknown>).feature_id : undefined;
  return typeof v === "string" ? v : null;
}

export function operationIdOf(args: unknown): string | null {
  const v = args && typeof args === "object" ? (args as Record<string, unknown>).operation_id : undefined;
  return typeof v === "string" ? v : null;
}
