// The flags every `aop` command takes (the program's own options), declared once: the `checkpoint` and
// `continuity-doctor` programs take the ones they need from here.
import type { FlagSpec, FlagValues } from "./flags.js";

export const AOP_GLOBAL_FLAGS = [
  { flag: "root", value: "<dir>", description: "workspace root (default: AOP_ROOT, else the nearest folder with .aop/, agentic/orchestrator/ or .git)" },
  { flag: "transport", value: "<kind>", default: "inprocess", description: "inprocess | mcp (spawn `aop mcp` and call through an MCP client)" },
  { flag: "run-id", value: "<id>", description: "run id recorded for tool calls (default: AOP_RUN_ID, the active lease, adhoc-<date>)" },
  { flag: "session-id", value: "<id>", description: "session id recorded for tool calls (default: AOP_SESSION_ID)" },
  { flag: "actor", value: "<role>", description: "role calling tools: orchestrator | planner | builder | qa | system (default: AOP_ACTOR, orchestrator)" },
  { flag: "json", description: "print the machine payload only" },
] as const satisfies readonly FlagSpec[];

export type GlobalOptions = FlagValues<typeof AOP_GLOBAL_FLAGS>;

/** One of the program's flags, for a bin's program that takes it too. */
export function globalFlag(flag: (typeof AOP_GLOBAL_FLAGS)[number]["flag"]): FlagSpec {
  return AOP_GLOBAL_FLAGS.find((f) => f.flag === flag)!;
}
