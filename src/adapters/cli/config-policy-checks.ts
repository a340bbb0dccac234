// Policy checks beyond the schema that `aop config check` runs: RBAC grants against the tool catalog.
import type { ExtraPolicyCheck } from "../../config/config-check.js";

export async function configPolicyChecks(): Promise<ExtraPolicyCheck[]> {
  const { loadCatalog } = await import("../../catalog/catalog.js");
  const { rbacProblems } = await import("../../catalog/catalog-check.js");
  return [(policy) => rbacProblems(policy, loadCatalog().tools)];
}
