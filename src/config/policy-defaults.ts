// The bundled policy defaults (generated from policy.defaults.yaml at build time), as a fresh copy.
// Kept apart from the loader so callers that only need the defaults do not load the loader's graph.
import { createRequire } from "node:module";
import type { Policy } from "./policy-types.js";

let require: NodeJS.Require | undefined; // created on first use: it costs start-up time to callers that never ask

export function policyDefaults(): Policy {
  require ??= createRequire(import.meta.url);
  return structuredClone(require("../catalog/generated/policy.defaults.json") as Policy);
}
