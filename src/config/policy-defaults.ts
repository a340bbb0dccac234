// The bundled policy defaults (generated from policy.defaults.yaml at build time), as a fresh copy.
// Kept apart from the loader so callers that only need the defaults do not load the loader's graph.
import fs from "node:fs";
import type { Policy } from "./policy-types.js";

let text: string | undefined; // read on first use: it costs start-up time to callers that never ask

export function policyDefaults(): Policy {
  // A parse per call is the fresh copy (a JSON module through require would cost a short process more).
  text ??= fs.readFileSync(new URL("../catalog/generated/policy.defaults.json", import.meta.url), "utf8");
  return JSON.parse(text) as Policy;
}
