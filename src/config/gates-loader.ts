// Loads and validates agentic/orchestrator/gates.yaml, including the cross-references a schema cannot check.
import type { WorkspaceLayout } from "../store/layout.js";
import { validateAgainst } from "../catalog/load-validator.js";
import { schemaProblems } from "../catalog/schema-problems.js";
import type { GatesConfig } from "./gates-types.js";
import type { ConfigProblem } from "./policy-types.js";
import { configInvalid } from "./config-invalid.js";
import { parseYamlText, readYamlFile, type ReadResult } from "./read-config-file.js";
import { gatesDefaultProfile } from "./upstream-shape.js";

const GATES_FILE = "agentic/orchestrator/gates.yaml";

export interface GatesLoadResult {
  gates: GatesConfig | null;
  problems: ConfigProblem[];
  exists: boolean;
  /** gates.yaml's own top-level `default_profile`, which the upstream orchestrator refuses (DRIFT_014), or null. */
  ownDefaultProfile: string | null;
}

/** Step names unique per mode, depends_on naming earlier-declared steps of the same mode, no cycles. */
function gatesCrossProblems(gates: GatesConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const [profileName, profile] of Object.entries(gates.profiles)) {
    for (const [modeName, steps] of Object.entries(profile.modes)) {
      const base = `profiles.${profileName}.modes.${modeName}`;
      const seen = new Set<string>();
      steps.forEach((step, i) => {
        if (seen.has(step.name)) problems.push({ file: GATES_FILE, path: `${base}[${i}].name`, message: `duplicates step name '${step.name}'` });
        for (const dep of step.depends_on ?? []) {
          if (dep === step.name) problems.push({ file: GATES_FILE, path: `${base}[${i}].depends_on`, message: "a step cannot depend on itself" });
          else if (!seen.has(dep)) {
            const later = steps.some((s) => s.name === dep);
            problems.push({
              file: GATES_FILE,
              path: `${base}[${i}].depends_on`,
              message: later ? `names '${dep}', which is declared later; list dependencies before the steps that need them` : `names unknown step '${dep}'`,
            });
          }
        }
        seen.add(step.name);
      });
    }
  }
  if (gates.default_profile !== undefined && !(gates.default_profile in gates.profiles)) {
    problems.push({ file: GATES_FILE, path: "default_profile", message: `names unknown profile '${gates.default_profile}'` });
  }
  return problems;
}

export async function loadGatesTolerant(layout: WorkspaceLayout): Promise<GatesLoadResult> {
  return gatesFrom(await readYamlFile(layout.gatesFile, GATES_FILE));
}

/** What loadGatesTolerant gives for a gates.yaml holding `text`, read already by the gates snapshot. */
export async function gatesFromText(text: string): Promise<GatesLoadResult> {
  return gatesFrom(await parseYamlText(text, GATES_FILE));
}

async function gatesFrom(read: ReadResult): Promise<GatesLoadResult> {
  if (!read.ok) return { gates: null, problems: [read.problem], exists: true, ownDefaultProfile: null };
  if (!read.exists) return { gates: null, problems: [], exists: false, ownDefaultProfile: null };
  const ownDefaultProfile = gatesDefaultProfile(read.value) ?? null;
  const errors = await validateAgainst("config/gates", read.value);
  if (errors.length > 0) return { gates: null, problems: schemaProblems(errors).map((p) => ({ file: GATES_FILE, ...p })), exists: true, ownDefaultProfile };
  const gates = read.value as GatesConfig;
  const problems = gatesCrossProblems(gates);
  return { gates: problems.length === 0 ? gates : null, problems, exists: true, ownDefaultProfile };
}

export async function loadGates(layout: WorkspaceLayout): Promise<GatesConfig> {
  const result = await loadGatesTolerant(layout);
  if (result.problems.length > 0) throw configInvalid(result.problems);
  if (!result.gates) {
    throw configInvalid([{ file: GATES_FILE, path: "", message: "does not exist", hint: "run `aop init` to create an example gates.yaml" }]);
  }
  return result.gates;
}
