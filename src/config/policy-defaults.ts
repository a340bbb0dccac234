// The bundled policy defaults (generated from policy.defaults.yaml at build time), as a fresh copy.
// Kept apart from the loader so callers that only need the defaults do not load the loader's graph.
// The text is a generated module's string, so that a start reads no file and builds no URL for it.
import { POLICY_DEFAULTS_TEXT } from "../catalog/generated/policy-defaults-text.js";
import type { Policy, PolicyLoadResult } from "./policy-types.js";

export function policyDefaults(): Policy {
  // A parse per call is the fresh copy.
  return JSON.parse(POLICY_DEFAULTS_TEXT) as Policy;
}

/** What loading the policy gives in a workspace without policy.yaml and aop.yaml. */
export function policyWithoutUserFile(): PolicyLoadResult {
  return { policy: policyDefaults(), problems: [], userFileExists: false, aopFileExists: false, aopOnlyKeysInUserFile: [] };
}
