// Helpers for timeline tests: read a run's lines and check the sequence invariants.
import fs from "node:fs";
import type { WorkspaceLayout } from "../../src/store/layout.js";

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
