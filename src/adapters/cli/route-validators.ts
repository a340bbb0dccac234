// The validators a lean route's pipeline needs whatever tool it serves: a workspace's policy.yaml (its
// user schema and the merged one) and the error envelope. Literal paths, so that a route's bundle holds
// them (scripts/bundle-bins.mjs makes the policy ones chunks, loaded only when a policy.yaml needs them).
export const PIPELINE_VALIDATORS = {
  "config/policy.user": () => import("../../catalog/generated/validators/config__policy.user.js"),
  "config/policy": () => import("../../catalog/generated/validators/config__policy.js"),
  "envelope/error": () => import("../../catalog/generated/validators/envelope__error.js"),
};
