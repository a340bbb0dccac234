// Self-checks of the tool surface: catalog ↔ handlers ↔ schemas, and policy RBAC ↔ catalog. Pure.
import type { ConfigProblem, Policy } from "../config/policy-types.js";
import { ROLES } from "../config/policy-types.js";
import { mcpToolName, validatorName } from "./catalog.js";
import type { CatalogEntry } from "./tool-types.js";

const MCP_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const CANONICAL_NAME = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;

export interface CatalogFacts {
  tools: CatalogEntry[];
  handlerNames: string[];
  /** Validator names that exist (compiled at build time). */
  validatorNames: Set<string>;
  inputSchemaOf(entry: CatalogEntry): { properties?: Record<string, unknown>; required?: string[]; type?: unknown };
}

export function catalogProblems(facts: CatalogFacts): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  const mcpNames = new Set<string>();
  for (const t of facts.tools) {
    if (names.has(t.name)) problems.push(`${t.name}: listed twice`);
    names.add(t.name);
    if (!CANONICAL_NAME.test(t.name)) problems.push(`${t.name}: name must look like domain.action`);
    const mcp = mcpToolName(t.name);
    if (!MCP_NAME.test(mcp)) problems.push(`${t.name}: MCP name ${mcp} is not accepted by MCP clients`);
    if (mcpNames.has(mcp)) problems.push(`${t.name}: MCP name ${mcp} collides with another tool`);
    mcpNames.add(mcp);
    if (!facts.handlerNames.includes(t.name)) problems.push(`${t.name}: no handler`);
    for (const ref of [t.input_schema_ref, t.output_schema_ref]) {
      if (!facts.validatorNames.has(validatorName(ref))) problems.push(`${t.name}: schema ${ref} is missing or did not compile`);
    }
    if (t.mutating && !t.requires_operation_id) problems.push(`${t.name}: mutating tools must require operation_id`);
    if (t.requires_operation_id) {
      const input = facts.inputSchemaOf(t);
      if (!input.properties || !("operation_id" in input.properties) || !input.required?.includes("operation_id")) {
        problems.push(`${t.name}: input schema must require operation_id`);
      }
    }
    if (t.supported_roles.length === 0) problems.push(`${t.name}: supports no role`);
    for (const role of t.supported_roles) if (!(ROLES as readonly string[]).includes(role)) problems.push(`${t.name}: unknown role ${role}`);
  }
  for (const handler of facts.handlerNames) if (!names.has(handler)) problems.push(`${handler}: handler has no catalog entry`);
  return problems;
}

/** RBAC grants naming unknown tools, or tools whose catalog entry does not support the role. */
export function rbacProblems(policy: Policy, tools: CatalogEntry[], file = "agentic/orchestrator/policy.yaml"): ConfigProblem[] {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const problems: ConfigProblem[] = [];
  for (const [role, granted] of Object.entries(policy.rbac)) {
    (granted ?? []).forEach((tool, i) => {
      const entry = byName.get(tool);
      if (!entry) problems.push({ file, path: `rbac.${role}[${i}]`, message: `names unknown tool '${tool}'`, hint: "see `aop tools` for the tool names" });
      else if (!(entry.supported_roles as string[]).includes(role)) {
        problems.push({ file, path: `rbac.${role}[${i}]`, message: `grants ${tool}, which role '${role}' cannot call (supported: ${entry.supported_roles.join(", ")})`, hint: `remove it from rbac.${role}` });
      }
    });
  }
  return problems;
}
