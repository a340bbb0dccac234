// Renders agentic/orchestrator/tools.md from the catalog. Pure (schemas are passed in).
import type { CatalogEntry } from "./tool-types.js";
import { mcpToolName } from "./catalog.js";

interface SchemaLike {
  properties?: Record<string, { description?: string; type?: unknown; enum?: unknown[] }>;
  required?: string[];
}

function describeType(prop: { type?: unknown; enum?: unknown[] }): string {
  if (prop.enum) return prop.enum.map((v) => JSON.stringify(v)).join(" \\| ");
  if (Array.isArray(prop.type)) return prop.type.join(" \\| ");
  return typeof prop.type === "string" ? prop.type : "any";
}

export function renderToolsDoc(tools: CatalogEntry[], inputSchemaOf: (entry: CatalogEntry) => SchemaLike): string {
  const lines: string[] = [
    "# Tool surface",
    "",
    "Generated from the aop-continuity tool catalog by `aop tools --write-docs` (also written by `aop init`). Do not edit by hand.",
    "",
    "| tool | MCP name | mutating | roles | what it does |",
    "|---|---|---|---|---|",
  ];
  for (const t of tools) lines.push(`| \`${t.name}\` | \`${mcpToolName(t.name)}\` | ${t.mutating ? "yes" : "no"} | ${t.supported_roles.join(", ")} | ${t.description} |`);
  for (const t of tools) {
    lines.push("", `## ${t.name}`, "", t.description, "");
    const schema = inputSchemaOf(t);
    const props = Object.entries(schema.properties ?? {});
    if (props.length === 0) {
      lines.push("No arguments.");
      continue;
    }
    lines.push("| argument | type | required | notes |", "|---|---|---|---|");
    for (const [name, prop] of props) lines.push(`| \`${name}\` | ${describeType(prop)} | ${schema.required?.includes(name) ? "yes" : "no"} | ${prop.description ?? ""} |`);
  }
  return lines.join("\n") + "\n";
}
