// A feature's `state.md`: YAML front matter (the machine state) followed by a free Markdown body. Pure.
import type { FeatureStatus } from "./feature-index.js";

export interface GateRecord {
  result: "pass" | "fail";
  evidence: string;
  at: string;
}

export interface FeatureState {
  feature_id: string;
  title: string;
  status: FeatureStatus;
  version: number;
  created_at: string;
  updated_at: string;
  gates: Record<string, GateRecord>;
}

export interface StateDocument {
  state: FeatureState;
  body: string;
}

export type YamlApi = { parse(text: string): unknown; stringify(value: unknown, options?: object): string };

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

export function defaultBody(featureId: string, title: string, description: string | undefined): string {
  return `# ${title || featureId}\n\n${description ? description.trim() + "\n" : "Notes for this feature go here; aop only manages the front matter above.\n"}`;
}

export function serializeState(doc: StateDocument, yaml: YamlApi): string {
  const front = yaml.stringify(doc.state, { lineWidth: 0 }).trimEnd();
  return `---\n${front}\n---\n${doc.body}`;
}

/** Parse state.md; returns a problem string instead of throwing on malformed input. */
export function parseState(text: string, yaml: YamlApi): { doc: StateDocument } | { problem: string } {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { problem: "state.md has no YAML front matter (--- ... ---)" };
  let front: unknown;
  try {
    front = yaml.parse(match[1]!);
  } catch (err) {
    return { problem: `state.md front matter is not valid YAML: ${(err as Error).message.split("\n")[0]}` };
  }
  if (front === null || typeof front !== "object" || Array.isArray(front)) return { problem: "state.md front matter must be a mapping" };
  const f = front as Record<string, unknown>;
  if (typeof f.feature_id !== "string") return { problem: "state.md front matter has no feature_id" };
  const gates = f.gates && typeof f.gates === "object" && !Array.isArray(f.gates) ? (f.gates as Record<string, GateRecord>) : {};
  return {
    doc: {
      state: {
        feature_id: f.feature_id,
        title: typeof f.title === "string" ? f.title : "",
        status: f.status === "blocked" || f.status === "merged" ? f.status : "active",
        version: typeof f.version === "number" && Number.isInteger(f.version) ? f.version : 1,
        created_at: typeof f.created_at === "string" ? f.created_at : "",
        updated_at: typeof f.updated_at === "string" ? f.updated_at : "",
        gates,
      },
      body: match[2] ?? "",
    },
  };
}
