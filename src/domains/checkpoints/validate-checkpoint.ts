// The checkpoint validator: JSON text → errors, warnings and hints (docs/checkpoints.md). Once loaded it is pure;
// the precompiled schema does the structural work, checkpoint-rules.ts the rest.
// Imported statically (not through loadValidator): every checkpoint command needs it.
import checkpointSchema from "../../catalog/generated/validators/checkpoint__checkpoint.js";
import type { CompiledValidator } from "../../catalog/load-validator.js";
import { checkpointRuleProblems } from "./checkpoint-rules.js";
import { typedCheckpoint } from "./typed-checkpoint.js";
import { findJsonSyntaxError } from "./json-syntax.js";
import { classifySchemaErrors } from "./schema-messages.js";
import { skillFromFileName, type Checkpoint, type CheckpointProblem, type FileReport } from "./checkpoint-types.js";
import { compareText } from "../../core/compare-text.js";

export interface ValidateInput {
  /** Base name, e.g. `architect.checkpoint.json` (the skill must match it). */
  fileName: string;
  text: string;
  sizeBytes: number;
  /** Epoch ms: only used for the "updated_at in the future" warning. */
  now: number;
  /** False when the caller needs only the verdict (validate): no typed view is built. */
  view?: boolean;
}

export interface ValidationOutcome extends FileReport {
  /** The parsed JSON (any shape), undefined when the text is not JSON. */
  document: unknown;
  /** The document, typed, when it has no errors. */
  checkpoint: Checkpoint | null;
}

export type CheckpointValidator = (input: ValidateInput) => ValidationOutcome;

function byPath(a: CheckpointProblem, b: CheckpointProblem): number {
  return compareText(a.path, b.path);
}

/** Parse JSON (a leading BOM is tolerated), or explain where the syntax breaks. */
function parseCheckpointJson(text: string): { ok: true; value: unknown } | { ok: false; problem: CheckpointProblem } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (err) {
    const found = findJsonSyntaxError(body);
    const where = found ? `line ${found.line}, column ${found.column}: ${found.message}` : (err as Error).message;
    return { ok: false, problem: { path: "", message: `is not valid JSON (${where})` } };
  }
}

/** Validate an already-parsed document. */
export function checkDocument(schema: CompiledValidator, document: unknown, input: Omit<ValidateInput, "text">): ValidationOutcome {
  const valid = schema(document);
  const { errors, hints } = valid ? { errors: [] as CheckpointProblem[], hints: [] as CheckpointProblem[] } : classifySchemaErrors(schema.errors ?? []);
  const warnings: CheckpointProblem[] = [];
  const isObject = document !== null && typeof document === "object" && !Array.isArray(document);
  if (isObject) checkpointRuleProblems(document as Record<string, unknown>, input, { errors, warnings, hints });
  const declared = isObject ? (document as Record<string, unknown>).skill : undefined;
  const skill = typeof declared === "string" && declared.trim() !== "" ? declared : skillFromFileName(input.fileName);
  if (errors.length > 1) errors.sort(byPath);
  if (warnings.length > 1) warnings.sort(byPath);
  if (hints.length > 1) hints.sort(byPath);
  const checkpoint = errors.length === 0 && input.view !== false ? typedCheckpoint(document as Record<string, unknown>) : null;
  return { file: input.fileName, skill, errors, warnings, hints, document, checkpoint };
}

export function validateCheckpointText(schema: CompiledValidator, input: ValidateInput): ValidationOutcome {
  const parsed = parseCheckpointJson(input.text);
  if (!parsed.ok) {
    return { file: input.fileName, skill: skillFromFileName(input.fileName), errors: [parsed.problem], warnings: [], hints: [], document: undefined, checkpoint: null };
  }
  return checkDocument(schema, parsed.value, input);
}

/** The validator with its compiled schema loaded. */
export async function loadCheckpointValidator(): Promise<CheckpointValidator> {
  return (input) => validateCheckpointText(checkpointSchema, input);
}

export async function loadCheckpointSchema(): Promise<CompiledValidator> {
  return checkpointSchema;
}
