// Every top-level command: its name and a one-line summary for `aop --help`. Each command's module is
// loaded (command-modules.ts) only when it is the one invoked, so start-up cost does not grow with the
// command count, and the program's own help needs no command module at all.
import type { Command } from "commander";
import type { FlagSpec } from "./flags.js";

export interface CommandModule {
  register(program: Command, summary: string): void;
}

export const COMMANDS = [
  { name: "init", summary: "create policy.yaml, gates.yaml and the .aop/ skeleton (idempotent)" },
  { name: "config", summary: "validate policy.yaml and gates.yaml" },
  { name: "feature", summary: "create, list, show features and set their status" },
  { name: "run", summary: "start, heartbeat, stop and inspect the run lease" },
  { name: "session", summary: "assign agent sessions to features in the active run" },
  { name: "checkpoint", summary: "validate, rank, update and resume skill checkpoints (.checkpoints/<skill>.checkpoint.json)" },
  { name: "gates", summary: "run a gate mode from gates.yaml and record its evidence" },
  { name: "evidence", summary: "show, verify, attest, anchor and prove gate evidence" },
  { name: "keys", summary: "the Ed25519 key that signs attestations and anchors (init, list)" },
  { name: "replay", summary: "show a run's timeline of tool calls (--list runs, --follow a live run)" },
  { name: "export", summary: "send runs as OpenTelemetry GenAI traces over OTLP (or to an OTLP file), incrementally" },
  { name: "report", summary: "the timeline you can look at: one offline HTML file (waterfall, filters, features, checkpoints, doctor), --serve live, --diff two runs" },
  { name: "doctor", summary: "run every check (DRIFT_*, CONT_*, CKPT_*) and persist the report" },
  { name: "continuity", summary: "diagnose memory/CURRENT_STATE.md (memory-continuity protocol): continuity doctor" },
  { name: "tools", summary: "list the tool catalog; --write-docs regenerates tools.md" },
  { name: "call", summary: "call any tool with JSON arguments (in-process or --transport mcp)" },
  { name: "integrate", summary: "wire aop into Claude Code, Codex or Cursor (hooks and MCP server config)" },
  { name: "agent", summary: "what an agent starts from and writes before stopping: the orientation, the resume and handoff prompts" },
  { name: "hook", summary: "Claude Code hook handler: session timeline, orientation, compaction instructions, stop reminders" },
  { name: "mcp", summary: "serve every tool, the orientation resources and the resume/handoff prompts over MCP stdio" },
] as const;

export type CommandName = (typeof COMMANDS)[number]["name"];

/** The flags every `aop` command takes. */
export const AOP_GLOBAL_FLAGS: readonly FlagSpec[] = [
  { flag: "root", value: "<dir>", description: "workspace root (default: AOP_ROOT, else the nearest folder with .aop/, agentic/orchestrator/ or .git)" },
  { flag: "transport", value: "<kind>", default: "inprocess", description: "inprocess | mcp (spawn `aop mcp` and call through an MCP client)" },
  { flag: "run-id", value: "<id>", description: "run id recorded for tool calls (default: AOP_RUN_ID, the active lease, adhoc-<date>)" },
  { flag: "session-id", value: "<id>", description: "session id recorded for tool calls (default: AOP_SESSION_ID)" },
  { flag: "actor", value: "<role>", description: "role calling tools: orchestrator | planner | builder | qa | system (default: AOP_ACTOR, orchestrator)" },
  { flag: "json", description: "print the machine payload only" },
];

/** Global flags that take a value, so their values are not mistaken for a command name. */
const VALUE_FLAGS = new Set(AOP_GLOBAL_FLAGS.filter((f) => f.value).map((f) => `--${f.flag}`));

/** The command the user asked for (`aop help <cmd>` counts), or undefined. */
export function requestedCommand(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (VALUE_FLAGS.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith("-")) continue;
    if (arg === "help") return argv.slice(i + 1).find((a) => !a.startsWith("-"));
    return arg;
  }
  return undefined;
}
