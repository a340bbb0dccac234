// Lanes of a run's waterfall: one per actor and session, and one per subagent under its session's lane.
// Pure; lanes come in order of first appearance, a session's subagents right after its own lane.
import type { ReportEntry } from "./timeline-codec.js";

export type LaneEntry = Pick<ReportEntry, "actor_type" | "session_id" | "agent_id" | "agent_type" | "result">;

export interface Lane {
  index: number;
  key: string;
  actor_type: string;
  session_id: string | null;
  agent_id: string | null;
  agent_type: string | null;
  /** The lane of the session a subagent lane belongs to, when that session has calls of its own. */
  parent: number | null;
  label: string;
  entries: number;
  errors: number;
}

export interface LaneAssignment {
  lanes: Lane[];
  /** Entry index → lane index. */
  laneOf: Int32Array;
}

const SEP = "\u0000";

function laneKey(e: LaneEntry): string {
  return e.actor_type + SEP + (e.session_id ?? "") + SEP + (e.agent_id ?? "");
}

/** A long id shortened for a label (uuids, tool_use ids): the full one is in the detail pane. */
export function shortId(id: string, keep = 8): string {
  return id.length > keep + 4 ? `${id.slice(0, keep)}…` : id;
}

export function laneLabel(lane: Pick<Lane, "actor_type" | "session_id" | "agent_id" | "agent_type">): string {
  if (lane.agent_id !== null) return `↳ ${lane.agent_type ?? "subagent"} ${shortId(lane.agent_id)}`;
  const actor = lane.actor_type === "" ? "(no actor)" : lane.actor_type;
  return lane.session_id === null ? actor : `${actor} · ${shortId(lane.session_id)}`;
}

export function assignLanes(entries: readonly LaneEntry[]): LaneAssignment {
  // Groups (actor + session) in order of first appearance; within a group the session's own lane first.
  const groups = new Map<string, { order: number; main: string | null; subagents: string[] }>();
  const firstOf = new Map<string, LaneEntry>();
  const counts = new Map<string, { entries: number; errors: number }>();
  const keys: string[] = new Array(entries.length);
  entries.forEach((e, i) => {
    const key = laneKey(e);
    keys[i] = key;
    let c = counts.get(key);
    if (!c) {
      c = { entries: 0, errors: 0 };
      counts.set(key, c);
      firstOf.set(key, e);
      const groupKey = e.actor_type + SEP + (e.session_id ?? "");
      let g = groups.get(groupKey);
      if (!g) {
        g = { order: groups.size, main: null, subagents: [] };
        groups.set(groupKey, g);
      }
      if (e.agent_id === null) g.main = key;
      else g.subagents.push(key);
    }
    c.entries += 1;
    if (e.result === "error") c.errors += 1;
  });
  const lanes: Lane[] = [];
  const laneIndex = new Map<string, number>();
  const add = (key: string, parent: number | null) => {
    const first = firstOf.get(key)!;
    const c = counts.get(key)!;
    const lane: Lane = {
      index: lanes.length, key, actor_type: first.actor_type, session_id: first.session_id, agent_id: first.agent_id, agent_type: first.agent_type,
      parent, label: "", entries: c.entries, errors: c.errors,
    };
    lane.label = laneLabel(lane);
    laneIndex.set(key, lane.index);
    lanes.push(lane);
  };
  for (const g of groups.values()) {
    if (g.main !== null) add(g.main, null);
    const parent = g.main === null ? null : laneIndex.get(g.main)!;
    for (const sub of g.subagents) add(sub, parent);
  }
  const laneOf = new Int32Array(entries.length);
  for (let i = 0; i < keys.length; i++) laneOf[i] = laneIndex.get(keys[i]!)!;
  return { lanes, laneOf };
}
