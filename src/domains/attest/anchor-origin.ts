// The origin line of a feature's checkpoints, also the note's key name: `aop/<workspace>/<feature>`, both
// parts percent-encoded so the origin holds no spaces, '+' or '/' of its own (c2sp.org/tlog-checkpoint).
// The workspace part is the root folder's name, for people; verification checks only the feature part,
// so a moved or re-cloned workspace keeps its anchors.

const PREFIX = "aop/";

export function anchorOrigin(workspaceName: string, featureId: string): string {
  return `${PREFIX}${encodeURIComponent(workspaceName || "workspace")}/${encodeURIComponent(featureId)}`;
}

/** The feature an origin of ours names, or null when the origin is not of that shape. */
export function originFeature(origin: string): string | null {
  if (!origin.startsWith(PREFIX)) return null;
  const parts = origin.slice(PREFIX.length).split("/");
  if (parts.length !== 2 || parts[0] === "" || parts[1] === "") return null;
  try {
    return decodeURIComponent(parts[1]!);
  } catch {
    return null;
  }
}
