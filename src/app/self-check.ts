// The start-up self-check (run by `aop mcp` and the tests): catalog, handlers and schemas agree.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AopError } from "../core/errors.js";
import { loadCatalog, readSchemaDocument } from "../catalog/catalog.js";
import { catalogProblems } from "../catalog/catalog-check.js";
import { loadAllHandlers } from "./handler-registry.js";

const VALIDATORS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "catalog", "generated", "validators");

export function compiledValidatorNames(): Set<string> {
  return new Set(fs.readdirSync(VALIDATORS_DIR).filter((f) => f.endsWith(".js")).map((f) => f.slice(0, -3).replace(/__/g, "/")));
}

export async function selfCheckProblems(): Promise<string[]> {
  const tools = loadCatalog().tools;
  return catalogProblems({
    tools,
    handlerNames: Object.keys(await loadAllHandlers()),
    validatorNames: compiledValidatorNames(),
    inputSchemaOf: (t) => readSchemaDocument(t.input_schema_ref),
  });
}

export async function assertSelfCheck(): Promise<void> {
  const problems = await selfCheckProblems();
  if (problems.length > 0) throw new AopError("internal_error", `tool catalog self-check failed: ${problems.join("; ")}`);
}
