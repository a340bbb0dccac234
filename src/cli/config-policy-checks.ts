// Policy checks beyond the schema that `aop config check` runs (RBAC against the tool catalog arrives with the kernel).
import type { ExtraPolicyCheck } from "../config/config-check.js";

export async function configPolicyChecks(): Promise<ExtraPolicyCheck[]> {
  return [];
}
