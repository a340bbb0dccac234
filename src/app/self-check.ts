// The start-up self-check (run by `aop mcp` and the tests): catalog, handlers and schemas agree.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadCatalog, readSchemaDocument } from "../catalog/catalog.js";
import { catalogProblems } from "../catalog/catalog-check.js";

const VALIDATORS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "catalog", "generated", "validators");

function compiledValidatorNames(): Set<string> {
  return new Set(fs.readdirSync(VALIDATORS_DIR).filter((f) => f.endsWith(".js")).map((f) => f.slice(0, -3).replace(/__/g, "/")));
}

export function selfCheckProblems(handlerNames: readonly string[]): string[] {
  return catalogProblems({
    tools: loadCatalog().tools,
    handlerNames: [...handlerNames],
    validatorNames: compiledValidatorNames(),
    inputSchemaOf: (t) => readSchemaDocument(t.input_schema_ref),
  });
}
