// Loads the policy: bundled defaults deep-merged with agentic/orchestrator/policy.yaml, validated.
// `loadPolicy` throws config_invalid; `loadPolicyTolerant` returns problems instead (the doctor uses it).
import { AopError } from "../core/errors.js";
import { forbiddenKeyMessage, forbiddenKeyPath, mergeDocuments } from "../core/merge.js";
import type { WorkspaceLayout } from "../store/layout.js";
import { validateAgainst } from "../catalog/load-validator.js";
import { schemaProblems } from "../catalog/schema-problems.js";
import type { ConfigProblem, Policy } from "./policy-types.js";
import { policyDefaults } from "./policy-defaults.js";
import { parseYamlText, readYamlFile, type ReadResult } from "./read-config-file.js";

export { policyDefaults };

export interface PolicyLoadResult {
  policy: Policy;
  problems: ConfigProblem[];
  userFileExists: boolean;
}

const USER_FILE = "agentic/orchestrator/policy.yaml";

export async function loadPolicyTolerant(layout: WorkspaceLayout): Promise<PolicyLoadResult> {
  return policyFrom(await readYamlFile(layout.policyFile, USER_FILE));
}

/** What loadPolicyTolerant gives for a policy.yaml holding `text` (read already, by the policy snapshot). */
export async function policyFromText(text: string): Promise<PolicyLoadResult> {
  return policyFrom(await parseYamlText(text, USER_FILE));
}

/** What loadPolicyTolerant gives in a workspace without a policy.yaml. */
export function policyWithoutUserFile(): PolicyLoadResult {
  return { policy: policyDefaults(), problems: [], userFileExists: false };
}

async function policyFrom(read: ReadResult): Promise<PolicyLoadResult> {
  if (read.ok && !read.exists) return policyWithoutUserFile();
  const defaults = policyDefaults();
  if (!read.ok) return { policy: defaults, problems: [read.problem], userFileExists: true };
  const user = read.value;
  if (user === null || typeof user !== "object" || Array.isArray(user)) {
    return { policy: defaults, problems: [{ file: USER_FILE, path: "", message: "must be a YAML mapping at the top level" }], userFileExists: true };
  }
  const forbidden = forbiddenKeyPath(user);
  if (forbidden !== null) return { policy: defaults, problems: [{ file: USER_FILE, path: forbidden, message: forbiddenKeyMessage(forbidden).slice(forbidden.length + 2) }], userFileExists: true };
  const userErrors = await validateAgainst("config/policy.user", user);
  const problems: ConfigProblem[] = schemaProblems(userErrors).map((p) => ({ file: USER_FILE, ...p }));
  const merged = mergeDocuments(defaults, user, { nullRemoves: false }) as Policy;
  if (problems.length === 0) {
    const mergedErrors = await validateAgainst("config/policy", merged);
    problems.push(...schemaProblems(mergedErrors).map((p) => ({ file: `${USER_FILE} (merged over defaults)`, ...p })));
  }
  if (problems.length === 0) return { policy: merged, problems, userFileExists: true };
  // Keep the user's valid sections; fall back to the defaults for any section with a problem.
  const broken = new Set(problems.map((p) => p.path.split(/[.[]/)[0] ?? ""));
  const tolerant = structuredClone(defaults) as unknown as Record<string, unknown>;
  const mergedRecord = merged as unknown as Record<string, unknown>;
  for (const section of Object.keys(tolerant)) {
    if (!broken.has(section) && !broken.has("")) tolerant[section] = mergedRecord[section];
  }
  return { policy: tolerant as unknown as Policy, problems, userFileExists: true };
}

export async function loadPolicy(layout: WorkspaceLayout): Promise<Policy> {
  const { policy, problems } = await loadPolicyTolerant(layout);
  if (problems.length > 0) throw configInvalid(problems);
  return policy;
}

export function configInvalid(problems: ConfigProblem[]): AopError {
  const first = problems[0]!;
  const where = first.path === "" ? "" : ` ${first.path}`;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? "s" : ""})` : "";
  return new AopError("config_invalid", `${first.file}:${where} ${first.message}${more}`, {
    details: { problems },
    hint: first.hint ?? "run `aop config check` to see every problem",
  });
}
