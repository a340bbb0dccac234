// The tool catalog (catalog.json): the single source of names, schemas, roles and mutability.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { CatalogEntry } from "./tool-types.js";

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface Catalog {
  tools: CatalogEntry[];
  get(name: string): CatalogEntry | undefined;
}

function buildCatalog(tools: CatalogEntry[]): Catalog {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return { tools, get: (name) => byName.get(name) };
}

let cached: Catalog | undefined;

export function loadCatalog(): Catalog {
  // Read as a file: a JSON module through require costs a short process a module resolution.
  cached ??= buildCatalog((JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "catalog.json"), "utf8")) as { tools: CatalogEntry[] }).tools);
  return cached;
}

/** MCP clients reject dots in tool names: `feature.init` is served as `feature_init`. */
export function mcpToolName(canonical: string): string {
  return canonical.replace(/\./g, "_");
}

/** `schemas/input/feature.init.json` → `input/feature.init` (the precompiled validator's name). */
export function validatorName(schemaRef: string): string {
  return schemaRef.replace(/^schemas\//, "").replace(/(\.schema)?\.json$/, "");
}

/** The raw JSON Schema document a catalog ref points at (what MCP `tools/list` advertises). */
export function readSchemaDocument(schemaRef: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, schemaRef), "utf8")) as Record<string, unknown>;
}

/** Names close to `name`, for "did you mean" hints. */
export function similarToolNames(catalog: Catalog, name: string): string[] {
  const wanted = name.replace(/_/g, ".").toLowerCase();
  const prefix = wanted.split(".")[0] ?? "";
  return catalog.tools.map((t) => t.name).filter((t) => t === wanted || t.startsWith(prefix + ".")).slice(0, 5);
}
