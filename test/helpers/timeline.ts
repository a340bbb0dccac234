// Helpers for timeline tests: read a run's lines and check the sequence invariants.
import fs from "node:fs";
import { WorkspaceLayout } from "../../src/store/layout.js";

export interface RawLines {
  entries: Record<string, unknown>[];
  unparseable: number;
  tornTail: boolean;
}

export function readTimelineLines(layout: WorkspaceLayout, runId: string): RawLines {
  const text = fs.readFileSync(layout.timelineFile(runId), "utf8");
  const parts = text.split("\n");
  const tail = parts.pop();
  const entries: Record<string, unknown>[] = [];
  let unparseable = 0;
  for (const line of parts) {
    if (line === "") continue;
    try {
      entries.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      unparseable += 1;
    }
  }
  return { entries, unparseable, tornTail: tail !== undefined && tail !== "" };
}

export function sequences(lines: RawLines): number[] {
  return lines.entries.map((e) => e.sequence as number);
}

/** The run's sidecar lines (`{sequence, …}`), parsed; [] when there is none. */
export function readSidecarLines(layout: WorkspaceLayout, runId: string): Record<string, unknown>[] {
  let text: string;
  try {
    text = fs.readFileSync(layout.timelineExt(runId), "utf8");
  } catch {
    return [];
  }
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The seed's 14 keys of a timeline line (DESIGN §4), written out here rather than taken from the code under test. */
export const SEED_KEYS = ["ts", "sequence", "run_id", "session_id", "actor_type", "feature_id", "tool_name", "mutating", "operation_id", "idempotency_status", "request_hash", "result", "error_code", "latency_ms"];

/**
 * A run's entries as readers see them: each line (which must hold exactly the seed's keys) with its
 * sidecar extras joined by sequence (DESIGN §21), flat — `marker`, `transport`, `client`, ….
 */
export function readJoinedEntries(layout: WorkspaceLayout, runId: string): Record<string, unknown>[] {
  const extras = new Map(readSidecarLines(layout, runId).map(({ sequence, ...rest }) => [sequence as number, rest]));
  return readTimelineLines(layout, runId).entries.map((line) => {
    const keys = Object.keys(line);
    if (keys.join() !== SEED_KEYS.join()) throw new Error(`a timeline line of ${runId} has keys ${keys.join(", ")}, not the seed's 14`);
    return { ...line, ...extras.get(line.sequence as number) };
  });
}

type RunEntry = { run: string; entry: Record<string, unknown> };

/** Every run's entries in the workspace, joined with their sidecars, each with its run id. */
export function allJoinedEntries(root: string): RunEntry[] {
  const layout = new WorkspaceLayout(root);
  return fs
    .readdirSync(layout.replayDir)
    .filter((f) => f.endsWith(".timeline.jsonl"))
    .flatMap((f) => {
      const run = f.slice(0, -".timeline.jsonl".length);
      return readJoinedEntries(layout, run).map((entry) => ({ run, entry }));
    });
}

/**
 * An agent client's session among `entries`: the entries of its runs (`<client>-…`), and its story —
 * each entry's marker or tool name, with `!` after a failed call.
 */
export function clientSession(entries: RunEntry[], client: string): { session: RunEntry[]; story: string[] } {
  const session = entries.filter((e) => e.run.startsWith(`${client}-`));
  const story = session.map((e) => `${String(e.entry.marker ?? e.entry.tool_name)}${e.entry.result === "error" ? "!" : ""}`);
  return { session, story };
}
