// What in aop's configuration files the upstream orchestrator (agentic-orchestrator 0.2.19) refuses
// (DESIGN §21, docs/compatibility.md): its gates schema has no top-level `default_profile` (the default
// profile is policy.yaml's `gate_selection.default_profile`, where upstream reads it too), and its policy
// schema allows no key outside its own, so aop's own keys live in agentic/orchestrator/aop.yaml. Pure.

import { AOP_ONLY_POLICY_KEYS } from "../catalog/generated/aop-only-keys.js";

/** Policy keys aop has and upstream's policy schema refuses (dotted paths); aop.yaml holds them. The list is
 * scripts/generate.mjs's, which also builds aop.yaml's schema from it. */
export { AOP_ONLY_POLICY_KEYS };

function at(value: unknown, dotted: string): unknown {
  let cur = value;
  for (const part of dotted.split(".")) {
    if (cur === null || typeof cur !== "object" || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** The aop-only keys a user policy.yaml sets (an older one: `aop migrate` moves them to aop.yaml). */
export function aopOnlyPolicyKeys(userPolicy: unknown): string[] {
  return AOP_ONLY_POLICY_KEYS.filter((key) => at(userPolicy, key) !== undefined);
}

/** An older gates.yaml's own top-level `default_profile`, or undefined. */
export function gatesDefaultProfile(userGates: unknown): string | undefined {
  const value = at(userGates, "default_profile");
  return typeof value === "string" ? value : undefined;
}
