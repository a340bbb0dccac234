// The orientation every client starts from, built in one place: Claude Code gets it at SessionStart
// (the hook), any MCP client as the resource aop://orientation and inside the `resume` prompt.
import type { Clock } from "../../core/clock.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import type { DoctorFamily } from "../doctor/index.js";
import { gatherSessionContext } from "./gather-context.js";
import { renderSessionContext, type ContextSources } from "./session-context.js";

export interface Orientation {
  sources: ContextSources;
  text: string;
}

/** `families`: the doctor's families (the composition root's); only their critical checks run. */
export async function buildOrientation(layout: WorkspaceLayout, clock: Clock, env: NodeJS.ProcessEnv, families: readonly DoctorFamily[]): Promise<Orientation> {
  const sources = await gatherSessionContext(layout, clock, env, families);
  return { sources, text: renderSessionContext(sources) };
}
