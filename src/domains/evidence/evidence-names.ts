// Which files in a feature's evidence folder are evidence, and what their names say. Pure.
// `gate-<mode>-<epoch_ms>.json` is immutable; `latest-<mode>.json` is a byte copy of the newest one.

export type EvidenceFileName = { kind: "gate"; mode: string; epochMs: number } | { kind: "latest"; mode: string };

const GATE_FILE = /^gate-(.+)-(\d{1,16})\.json$/;
const LATEST_FILE = /^latest-(.+)\.json$/;

/** Classify a file name; chain.jsonl, the manifest, temp files and anything else give null. */
export function parseEvidenceFileName(name: string): EvidenceFileName | null {
  const gate = GATE_FILE.exec(name);
  if (gate) return { kind: "gate", mode: gate[1]!, epochMs: Number(gate[2]) };
  const latest = LATEST_FILE.exec(name);
  if (latest) return { kind: "latest", mode: latest[1]! };
  return null;
}

/** The final path component of a workspace-relative path. */
export function baseName(relPath: string): string {
  const slash = relPath.lastIndexOf("/");
  return slash === -1 ? relPath : relPath.slice(slash + 1);
}
