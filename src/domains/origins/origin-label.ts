// The label a pulled workspace is shown by, and how `--origin X` finds one (docs/handoff.md). Pure.
import { AopError } from "../../core/errors.js";

/** What `--origin` accepts for the local workspace's own records. */
export const LOCAL_ORIGIN = "local";
const MAX_LABEL = 64;

interface Named {
  workspace_id: string;
  display_name: string;
}

/** The display name in `[A-Za-z0-9._@-]` (each run of anything else becomes one '-'). */
export function sanitizeLabel(displayName: string): string {
  return displayName.replace(/[^A-Za-z0-9._@-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, MAX_LABEL);
}

/**
 * A label per workspace, in the order given: the sanitized display name, with `#<first 8 hex of the
 * workspace id>` when another pulled workspace (or the word `local`) would have the same one.
 */
export function originLabels(origins: readonly Named[]): string[] {
  const bases = origins.map((o) => sanitizeLabel(o.display_name) || "workspace");
  const counts = new Map<string, number>();
  for (const b of bases) counts.set(b, (counts.get(b) ?? 0) + 1);
  return bases.map((b, i) => (counts.get(b)! > 1 || b === LOCAL_ORIGIN ? `${b}#${origins[i]!.workspace_id.slice(0, 8)}` : b));
}

/** The one origin `--origin X` names: its label, its display name, or a workspace-id prefix of 8+ hex. */
export function matchOrigin<T extends Named & { label: string }>(origins: readonly T[], wanted: string): T {
  const exact = origins.filter((o) => o.label === wanted);
  if (exact.length === 1) return exact[0]!;
  const byName = origins.filter((o) => o.display_name === wanted);
  if (byName.length === 1) return byName[0]!;
  const byId = /^[0-9a-f]{8,32}$/.test(wanted) ? origins.filter((o) => o.workspace_id.startsWith(wanted)) : [];
  if (byId.length === 1) return byId[0]!;
  const known = origins.map((o) => o.label).join(", ") || "none (aop sync pull fetches them)";
  const candidates = byName.length > 1 ? byName : byId;
  if (candidates.length > 1) {
    throw new AopError("invalid_argument", `--origin '${wanted.slice(0, 80)}' names ${candidates.length} pulled workspaces: give one of ${candidates.map((o) => o.label).join(", ")}`);
  }
  throw new AopError("origin_not_found", `no pulled workspace is called '${wanted.slice(0, 80)}'; pulled: ${known}`, { hint: "give a label from `aop replay --list`, a display name, or 8+ hex of a workspace id" });
}

/** `<origin>/<run_id>` split at its first '/', or null for a local run id (which never holds a '/'). */
export function splitRunRef(ref: string): { origin: string; runId: string } | null {
  const slash = ref.indexOf("/");
  if (slash <= 0) return null;
  return { origin: ref.slice(0, slash), runId: ref.slice(slash + 1) };
}

/**
 * Every origin `name` can mean, for a reader that takes the newest of several (`aop resume --from`): the
 * one its label names, else those sharing the display name, a workspace-id prefix, or the git remote.
 */
export function originsMatching<T extends Named & { label: string; remote: string }>(origins: readonly T[], name: string): T[] {
  const exact = origins.filter((o) => o.label === name);
  if (exact.length > 0) return exact;
  const byId = /^[0-9a-f]{8,32}$/.test(name) ? origins.filter((o) => o.workspace_id.startsWith(name)) : [];
  return [...new Set([...origins.filter((o) => o.display_name === name), ...byId, ...origins.filter((o) => o.remote === name)])];
}
