// Reads and updates features on disk: index.json and each state.md, under their locks, written atomically.
// Lock order is always index → state, so two updates can never wait on each other.
import fs from "node:fs";
import { AopError } from "../../core/errors.js";
import type { Clock } from "../../core/clock.js";
import { nowIso } from "../../core/clock.js";
import { validateId } from "../../core/ids.js";
import { ioFailure, writeFileAtomic, writeJsonAtomic } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { withLock } from "../../store/lock.js";
import { emptyIndex, parseIndex, statusInIndex, withStatus, type FeatureIndex, type FeatureStatus } from "./feature-index.js";
import { defaultBody, parseState, serializeState, type FeatureState, type GateRecord, type StateDocument, type YamlApi } from "./feature-state.js";
import { readTextOrNull } from "../../store/file-hash.js";
import { READ_LIMITS } from "../../store/read-limits.js";

let yamlApi: YamlApi | undefined;
async function yaml(): Promise<YamlApi> {
  yamlApi ??= (await import("yaml")).default as unknown as YamlApi;
  return yamlApi;
}

function corrupt(layout: WorkspaceLayout, file: string, problem: string, hint: string): AopError {
  const ref = layout.relative(file);
  return new AopError("file_corrupt", `${ref} ${problem}`, { details: { path: ref }, hint });
}

export function readIndex(layout: WorkspaceLayout, clock: Clock): FeatureIndex {
  const text = readTextOrNull(layout.featuresIndex, READ_LIMITS.featureIndex);
  if (text === null) return emptyIndex(nowIso(clock));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw corrupt(layout, layout.featuresIndex, "is not valid JSON", "restore it from version control or fix it by hand; `aop doctor` shows index problems");
  }
  const result = parseIndex(parsed);
  if ("problem" in result) throw corrupt(layout, layout.featuresIndex, `is not a feature index: ${result.problem}`, "fix .aop/features/index.json by hand");
  return result.index;
}

// Parsed states keyed by path, reused while the file's size and mtime are unchanged.
const stateCache = new Map<string, { mtimeMs: number; size: number; doc: StateDocument }>();

export async function readState(layout: WorkspaceLayout, featureId: string): Promise<StateDocument | null> {
  const file = layout.featureState(featureId);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw ioFailure(err, file);
  }
  const cached = stateCache.get(file);
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return structuredClone(cached.doc);
  const text = readTextOrNull(file, READ_LIMITS.featureState);
  if (text === null) return null;
  const parsed = parseState(text, await yaml());
  if ("problem" in parsed) throw corrupt(layout, file, `is not a feature state: ${parsed.problem}`, "fix the front matter by hand; `aop doctor` reports index/state problems");
  stateCache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, doc: parsed.doc });
  return structuredClone(parsed.doc);
}

export async function requireState(layout: WorkspaceLayout, featureId: string): Promise<StateDocument> {
  const doc = await readState(layout, validateId("feature_id", featureId));
  if (!doc) throw new AopError("feature_not_found", `feature '${featureId}' does not exist`, { details: { feature_id: featureId }, hint: "create it with `aop feature init` or list features with `aop feature list`" });
  return doc;
}

async function writeState(layout: WorkspaceLayout, doc: StateDocument): Promise<void> {
  writeFileAtomic(layout.featureState(doc.state.feature_id), serializeState(doc, await yaml()));
}

export interface CreateFeatureInput {
  feature_id: string;
  title?: string;
  description?: string;
}

export async function createFeature(layout: WorkspaceLayout, clock: Clock, input: CreateFeatureInput): Promise<FeatureState> {
  const featureId = validateId("feature_id", input.feature_id);
  return withLock(layout.lockFor(layout.featuresIndex), async () => {
    const index = readIndex(layout, clock);
    const known = statusInIndex(index, featureId);
    if (known !== null || fs.existsSync(layout.featureState(featureId))) {
      throw new AopError("feature_already_exists", `feature '${featureId}' already exists${known ? ` (${known})` : ""}`, { details: { feature_id: featureId, status: known } });
    }
    const now = nowIso(clock);
    const state: FeatureState = { feature_id: featureId, title: input.title ?? "", status: "active", version: 1, created_at: now, updated_at: now, gates: {} };
    await withLock(layout.lockFor(layout.featureState(featureId)), () => writeState(layout, { state, body: defaultBody(featureId, state.title, input.description) }));
    writeJsonAtomic(layout.featuresIndex, withStatus(index, featureId, "active", now));
    return state;
  });
}

export interface SetStatusInput {
  feature_id: string;
  status: FeatureStatus;
  expected_version?: number;
}

export async function setFeatureStatus(layout: WorkspaceLayout, clock: Clock, input: SetStatusInput): Promise<{ state: FeatureState; previous_status: FeatureStatus }> {
  const featureId = validateId("feature_id", input.feature_id);
  return withLock(layout.lockFor(layout.featuresIndex), async () => {
    // Refused before the state's lock is taken, so an unknown feature leaves no folder behind.
    await requireState(layout, featureId);
    // Read (and validated) before the first write: an unreadable index refuses the call with state.md untouched.
    const index = readIndex(layout, clock);
    return withLock(layout.lockFor(layout.featureState(featureId)), async () => {
      const doc = await requireState(layout, featureId);
      if (input.expected_version !== undefined && input.expected_version !== doc.state.version) {
        throw new AopError("version_conflict", `feature '${featureId}' is at version ${doc.state.version}, not ${input.expected_version}`, {
          details: { feature_id: featureId, expected_version: input.expected_version, actual_version: doc.state.version },
          hint: "re-read the feature and retry with its current version",
        });
      }
      const now = nowIso(clock);
      const previous = doc.state.status;
      doc.state = { ...doc.state, status: input.status, version: doc.state.version + 1, updated_at: now };
      await writeState(layout, doc);
      writeJsonAtomic(layout.featuresIndex, withStatus(index, featureId, input.status, now));
      return { state: doc.state, previous_status: previous };
    });
  });
}

/** Record a gate outcome in the feature's state (`gates.<mode>`). */
export async function recordGateResult(layout: WorkspaceLayout, clock: Clock, featureId: string, mode: string, record: GateRecord): Promise<FeatureState> {
  validateId("mode", mode);
  await requireState(layout, featureId); // no lock (and no folder) for a feature that does not exist
  return withLock(layout.lockFor(layout.featureState(validateId("feature_id", featureId))), async () => {
    const doc = await requireState(layout, featureId);
    doc.state = { ...doc.state, gates: { ...doc.state.gates, [mode]: record }, version: doc.state.version + 1, updated_at: nowIso(clock) };
    await writeState(layout, doc);
    return doc.state;
  });
}

export interface FeatureSummary {
  feature_id: string;
  status: FeatureStatus;
  title: string;
  version: number | null;
  updated_at: string | null;
  state_missing: boolean;
}

export async function listFeatures(layout: WorkspaceLayout, clock: Clock, status?: FeatureStatus): Promise<FeatureSummary[]> {
  const index = readIndex(layout, clock);
  const out: FeatureSummary[] = [];
  for (const s of ["active", "blocked", "merged"] as const) {
    if (status && s !== status) continue;
    for (const featureId of index[s]) {
      let doc: StateDocument | null;
      try {
        doc = await readState(layout, featureId);
      } catch {
        doc = null;
      }
      out.push({ feature_id: featureId, status: s, title: doc?.state.title ?? "", version: doc?.state.version ?? null, updated_at: doc?.state.updated_at ?? null, state_missing: doc === null });
    }
  }
  return out;
}
