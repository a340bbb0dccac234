// The feature index (`.aop/features/index.json`): which features are active, blocked or merged. Pure.

export const FEATURE_STATUSES = ["active", "blocked", "merged"] as const;
export type FeatureStatus = (typeof FEATURE_STATUSES)[number];

export interface FeatureIndex {
  /** 1 in files aop creates; the upstream orchestrator counts its writes here (kept as read). */
  version: number;
  active: string[];
  blocked: string[];
  merged: string[];
  updated_at: string;
  /** Keys aop does not use (the upstream orchestrator's locks, lock_leases, runtime_sessions, …), kept as they are. */
  [other: string]: unknown;
}

export function emptyIndex(nowIso: string): FeatureIndex {
  return { version: 1, active: [], blocked: [], merged: [], updated_at: nowIso };
}

export function statusInIndex(index: FeatureIndex, featureId: string): FeatureStatus | null {
  for (const status of FEATURE_STATUSES) if (index[status].includes(featureId)) return status;
  return null;
}

/** The index with `featureId` listed only under `status` (appended, keeping the others' order). */
export function withStatus(index: FeatureIndex, featureId: string, status: FeatureStatus, nowIso: string): FeatureIndex {
  const next: FeatureIndex = { ...index, updated_at: nowIso, active: [], blocked: [], merged: [] };
  for (const s of FEATURE_STATUSES) next[s] = index[s].filter((id) => id !== featureId);
  next[status] = [...next[status], featureId];
  return next;
}

/** Coerce a parsed index.json into shape, or say why it cannot be. Other keys are kept, in their order. */
export function parseIndex(value: unknown): { index: FeatureIndex } | { problem: string } {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { problem: "index.json must be a JSON object" };
  const record = value as Record<string, unknown>;
  const lists: Partial<Record<FeatureStatus, string[]>> = {};
  for (const status of FEATURE_STATUSES) {
    const list = record[status] ?? [];
    if (!Array.isArray(list) || !list.every((id) => typeof id === "string")) return { problem: `index.json: ${status} must be an array of feature ids` };
    lists[status] = list as string[];
  }
  const version = record.version;
  return {
    index: {
      ...record,
      version: typeof version === "number" && Number.isInteger(version) && version >= 1 ? version : 1,
      active: lists.active!,
      blocked: lists.blocked!,
      merged: lists.merged!,
      updated_at: typeof record.updated_at === "string" ? record.updated_at : "",
    },
  };
}
