// Build-time generation into src/catalog/generated/ (copied to dist/catalog/generated/ by the build):
// - every JSON Schema under schemas/ precompiled into a standalone ajv validator module (with its types), so commands
//   validate without loading or compiling ajv at run time;
// - the bundled policy defaults as a module's JSON string, so commands without a user policy never load the YAML parser;
// - TypeScript argument and result types of every tool (tool-types.d.ts, scripts/schema-types.mjs).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020Module from "ajv/dist/2020.js";
import standaloneModule from "ajv/dist/standalone/index.js";
import ucs2lengthModule from "ajv/dist/runtime/ucs2length.js";
import YAML from "yaml";
import { toolTypesSource } from "./schema-types.mjs";

const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const standaloneCode = standaloneModule.default ?? standaloneModule;
const ucs2length = ucs2lengthModule.default ?? ucs2lengthModule;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const schemasDir = path.join(root, "schemas");
const generatedDir = path.join(root, "src", "catalog", "generated");
const outDir = path.join(generatedDir, "validators");

/** The user policy file: the merged schema with nothing required and `null` allowed (null replaces a default). */
export function relaxForUserFile(schema) {
  if (Array.isArray(schema)) return schema.map(relaxForUserFile);
  if (schema === null || typeof schema !== "object") return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "required") continue;
    if (key === "properties" || key === "$defs") {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, relaxForUserFile(v)]));
    } else if (key === "additionalProperties" || key === "items") {
      out[key] = typeof value === "object" ? relaxForUserFile(value) : value;
    } else {
      out[key] = value;
    }
  }
  if (typeof out.type === "string") out.type = [out.type, "null"];
  else if (Array.isArray(out.type) && !out.type.includes("null")) out.type = [...out.type, "null"];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if ("const" in out) {
    out.enum = [out.const, null];
    delete out.const;
  }
  return out;
}

/**
 * Policy keys that are aop's alone (dotted paths): the upstream orchestrator's policy schema refuses
 * them, so they live in agentic/orchestrator/aop.yaml (docs/compatibility.md). The one list: generate()
 * writes it to src/catalog/generated/aop-only-keys.js for src/config/upstream-shape.ts.
 */
const AOP_ONLY_POLICY_KEYS = [
  "observability.evidence_integrity.attest",
  "observability.evidence_integrity.anchor_after_gate",
  "observability.evidence_integrity.anchor_git",
  "observability.export",
  "idempotency",
  "checkpoints",
  "hooks",
];

/**
 * aop.yaml's schema: the user policy schema cut down to `version` and the aop-only keys, every level
 * closed (`additionalProperties: false`), so a key of upstream's own put there is refused by name.
 */
export function aopFileSchema(relaxedPolicy) {
  const out = {
    $schema: relaxedPolicy.$schema,
    title: "aop-continuity's own policy keys (agentic/orchestrator/aop.yaml), merged over policy.yaml",
    type: ["object", "null"],
    additionalProperties: false,
    properties: { version: relaxedPolicy.properties.version },
  };
  for (const dotted of AOP_ONLY_POLICY_KEYS) {
    const parts = dotted.split(".");
    let from = relaxedPolicy;
    let to = out;
    parts.forEach((part, i) => {
      from = from.properties[part];
      if (from === undefined) throw new Error(`policy schema has no ${dotted}`);
      if (i === parts.length - 1) to.properties[part] = from;
      else {
        to.properties[part] ??= { type: from.type, additionalProperties: false, properties: {} };
        to = to.properties[part];
      }
    });
  }
  return out;
}

function listSchemas(dir, prefix = "") {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listSchemas(path.join(dir, entry.name), rel));
    else if (entry.name.endsWith(".json")) out.push(rel);
  }
  return out;
}

function moduleName(schemaName) {
  return schemaName.replace(/\//g, "__");
}

/**
 * The schema with every `#/$defs/…` reference replaced by the definition itself. ajv compiles a
 * definition that holds a `$ref` into a function of its own and calls it per item, with an argument
 * object each time; one flat function validates a checkpoint in about two thirds of the time. Same
 * rules, same errors (only `schemaPath` differs, which nothing reads). A schema whose definitions
 * refer to themselves, or whose references have siblings, is returned as it is.
 */
export function inlineLocalRefs(schema) {
  const defs = schema.$defs ?? {};
  let flat = true;
  const expand = (node, seen) => {
    if (Array.isArray(node)) return node.map((item) => expand(item, seen));
    if (node === null || typeof node !== "object") return node;
    if (typeof node.$ref === "string") {
      const name = node.$ref.startsWith("#/$defs/") ? node.$ref.slice("#/$defs/".length) : null;
      if (name === null || Object.keys(node).length !== 1 || defs[name] === undefined || seen.includes(name)) {
        flat = false;
        return node;
      }
      return expand(defs[name], [...seen, name]);
    }
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "$defs") continue;
      out[key] = key === "const" || key === "enum" || key === "default" || key === "examples" ? value : expand(value, seen);
    }
    return out;
  };
  const expanded = expand(schema, []);
  return flat ? expanded : schema;
}

// Union types (`["string", "object"]`) keep the errors of a "string or object" field readable: no anyOf branches.
export const AJV_OPTIONS = { allErrors: true, verbose: true, strict: true, allowUnionTypes: true };

function compile(schema) {
  const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { source: true, esm: true } });
  const validate = ajv.compile(inlineLocalRefs(schema));
  const code = standaloneCode(ajv, validate);
  // ajv's ESM output still calls require() for its small runtime helpers (when the schema needs one).
  // The one our schemas use is a plain function of its argument: its source goes into the module, so
  // a validator imports nothing at run time (a route's bundle holds it whole, docs/startup.md).
  const body = code.replaceAll('require("ajv/dist/runtime/ucs2length").default', "ucs2length");
  if (/\brequire\(/.test(body)) throw new Error(`a validator requires an ajv helper that is not inlined: ${/require\("[^"]*"\)/.exec(body)[0]}`);
  return body === code ? `${code}\n` : `${ucs2length.toString()}\n${body}\n`;
}

// Types for a validator module, so a start-up-critical module can import one statically (and a bundler
// can follow the import) instead of going through loadValidator's computed import().
const DECLARATION = `import type { CompiledValidator } from "../../load-validator.js";
declare const validate: CompiledValidator;
export { validate };
export default validate;
`;

export function generate() {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const names = [];
  for (const rel of listSchemas(schemasDir)) {
    const name = rel.replace(/\.schema\.json$/, "").replace(/\.json$/, "");
    const schema = JSON.parse(fs.readFileSync(path.join(schemasDir, rel), "utf8"));
    fs.writeFileSync(path.join(outDir, `${moduleName(name)}.js`), compile(schema));
    fs.writeFileSync(path.join(outDir, `${moduleName(name)}.d.ts`), DECLARATION);
    names.push(name);
    if (name === "config/policy") {
      const relaxed = relaxForUserFile(schema);
      fs.writeFileSync(path.join(outDir, `${moduleName("config/policy.user")}.js`), compile(relaxed));
      fs.writeFileSync(path.join(outDir, `${moduleName("config/policy.user")}.d.ts`), DECLARATION);
      names.push("config/policy.user");
      fs.writeFileSync(path.join(outDir, `${moduleName("config/aop")}.js`), compile(aopFileSchema(relaxed)));
      fs.writeFileSync(path.join(outDir, `${moduleName("config/aop")}.d.ts`), DECLARATION);
      names.push("config/aop");
    }
  }
  fs.writeFileSync(path.join(generatedDir, "aop-only-keys.js"), `export const AOP_ONLY_POLICY_KEYS = Object.freeze(${JSON.stringify(AOP_ONLY_POLICY_KEYS)});\n`);
  fs.writeFileSync(path.join(generatedDir, "aop-only-keys.d.ts"), "export declare const AOP_ONLY_POLICY_KEYS: readonly string[];\n");
  const catalog = JSON.parse(fs.readFileSync(path.join(root, "catalog.json"), "utf8"));
  const schemaOf = (ref) => inlineLocalRefs(JSON.parse(fs.readFileSync(path.join(root, ref), "utf8")));
  fs.writeFileSync(path.join(generatedDir, "tool-types.d.ts"), toolTypesSource(catalog.tools, schemaOf));
  const defaults = YAML.parse(fs.readFileSync(path.join(root, "src", "config", "policy.defaults.yaml"), "utf8"));
  // As a module's string: read with the code, not as a file found through a URL.
  fs.writeFileSync(path.join(generatedDir, "policy-defaults-text.js"), `export const POLICY_DEFAULTS_TEXT = ${JSON.stringify(JSON.stringify(defaults))};\n`);
  fs.writeFileSync(path.join(generatedDir, "policy-defaults-text.d.ts"), "export declare const POLICY_DEFAULTS_TEXT: string;\n");
  return names;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const names = generate();
  process.stdout.write(`generated ${names.length} validators\n`);
}
