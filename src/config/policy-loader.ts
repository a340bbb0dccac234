// Loads the policy: bundled defaults, deep-merged with agentic/orchestrator/policy.yaml, then with
// agentic/orchestrator/aop.yaml (aop's own keys, which the upstream orchestrator's policy schema refuses:
// docs/compatibility.md), validated. An older policy.yaml that still holds aop's keys is read as before;
// aop.yaml wins where both set one. `loadPolicy` throws config_invalid; `loadPolicyTolerant` returns
// problems instead (policy-snapshot.ts keeps its result for the hook, the kernel and the doctor).
import { forbiddenKeyMessage, forbiddenKeyPath, mergeDocuments } from "../core/merge.js";
import type { WorkspaceLayout } from "../store/layout.js";
import { validateAgainst } from "../catalog/load-validator.js";
import { schemaProblems } from "../catalog/schema-problems.js";
import type { ConfigProblem, Policy, PolicyLoadResult } from "./policy-types.js";
import { policyDefaults, policyWithoutUserFile } from "./policy-defaults.js";
import { parseYamlText, readYamlFile, type ReadResult } from "./read-config-file.js";
import { configInvalid } from "./config-invalid.js";
import { aopOnlyPolicyKeys } from "./upstream-shape.js";

export { policyDefaults };

const USER_FILE = "agentic/orchestrator/policy.yaml";
const AOP_FILE = "agentic/orchestrator/aop.yaml";
const ABSENT: ReadResult = { ok: true, value: undefined, exists: false };

export async function loadPolicyTolerant(layout: WorkspaceLayout): Promise<PolicyLoadResult> {
  return policyFrom(await readYamlFile(layout.policyFile, USER_FILE), await readYamlFile(layout.aopConfigFile, AOP_FILE));
}

/** What loadPolicyTolerant gives for policy.yaml and aop.yaml holding these texts (null: no such file), read already by the policy snapshot. */
export async function policyFromText(text: string | null, aopText: string | null = null): Promise<PolicyLoadResult> {
  return policyFrom(text === null ? ABSENT : await parseYamlText(text, USER_FILE), aopText === null ? ABSENT : await parseYamlText(aopText, AOP_FILE));
}

interface CheckedFile {
  value: Record<string, unknown>;
  /** The file as a whole is unusable (unreadable, no mapping, a forbidden key): it adds nothing. */
  fileProblems: ConfigProblem[];
  /** Keys its schema refuses: their sections fall back to the defaults. */
  schemaProblems: ConfigProblem[];
}

async function checkedFile(read: ReadResult, file: string, schema: string): Promise<CheckedFile> {
  const none = { value: {}, schemaProblems: [] };
  if (!read.ok) return { ...none, fileProblems: [read.problem] };
  if (!read.exists) return { ...none, fileProblems: [] };
  const value = read.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { ...none, fileProblems: [{ file, path: "", message: "must be a YAML mapping at the top level" }] };
  const forbidden = forbiddenKeyPath(value);
  if (forbidden !== null) return { ...none, fileProblems: [{ file, path: forbidden, message: forbiddenKeyMessage(forbidden).slice(forbidden.length + 2) }] };
  const problems: ConfigProblem[] = schemaProblems(await validateAgainst(schema, value)).map((p) => ({ file, ...p }));
  if (schema === "config/aop") {
    for (const p of problems) if (p.hint === undefined && p.message.startsWith("is not a known key")) p.hint = "aop.yaml holds only aop's own keys; every other policy key belongs in policy.yaml";
  }
  return { value: value as Record<string, unknown>, fileProblems: [], schemaProblems: problems };
}

async function policyFrom(read: ReadResult, aopRead: ReadResult): Promise<PolicyLoadResult> {
  const files = { userFileExists: !read.ok || read.exists, aopFileExists: !aopRead.ok || aopRead.exists, aopOnlyKeysInUserFile: read.ok && read.exists ? aopOnlyPolicyKeys(read.value) : [] };
  if (!files.userFileExists && !files.aopFileExists) return policyWithoutUserFile();
  const defaults = policyDefaults();
  const user = await checkedFile(read, USER_FILE, "config/policy.user");
  const own = await checkedFile(aopRead, AOP_FILE, "config/aop");
  // aop.yaml merges last: where an older policy.yaml still sets one of aop's keys, aop.yaml's value wins.
  const merged = mergeDocuments(mergeDocuments(defaults, user.value, { nullRemoves: false }), own.value, { nullRemoves: false }) as Policy;
  const sectionProblems = [...user.schemaProblems, ...own.schemaProblems];
  if (sectionProblems.length === 0) {
    const where = files.aopFileExists ? `${USER_FILE} and ${AOP_FILE} (merged over defaults)` : `${USER_FILE} (merged over defaults)`;
    sectionProblems.push(...schemaProblems(await validateAgainst("config/policy", merged)).map((p) => ({ file: where, ...p })));
  }
  const problems = [...user.fileProblems, ...own.fileProblems, ...sectionProblems];
  if (sectionProblems.length === 0) return { policy: merged, problems, ...files };
  // Keep the user's valid sections; fall back to the defaults for any section with a problem.
  const broken = new Set(sectionProblems.map((p) => p.path.split(/[.[]/)[0] ?? ""));
  const tolerant = structuredClone(defaults) as unknown as Record<string, unknown>;
  const mergedRecord = merged as unknown as Record<string, unknown>;
  for (const section of Object.keys(tolerant)) {
    if (!broken.has(section) && !broken.has("")) tolerant[section] = mergedRecord[section];
  }
  return { policy: tolerant as unknown as Policy, problems, ...files };
}

export async function loadPolicy(layout: WorkspaceLayout): Promise<Policy> {
  const { policy, problems } = await loadPolicyTolerant(layout);
  if (problems.length > 0) throw configInvalid(problems);
  return policy;
}
