// Every top-level command: its name, a one-line summary for `aop --help`, and its module, loaded only
// when it is the command invoked. In the CLI bundle each module sits behind its import() and is
// evaluated on that call alone, so start-up cost does not grow with the command count, and the
// program's own help evaluates no command module at all (docs/startup.md).
import type { Command } from "commander";
import { AOP_GLOBAL_FLAGS } from "../flags/global-flags.js";

export interface CommandModule {
  register(program: Command, summary: string): void;
}

export const COMMANDS = [
  { name: "init", summary: "create policy.yaml, gates.yaml and the .aop/ skeleton (idempotent)", load: (): Promise<CommandModule> => import("../commands/init.js") },
  { name: "config", summary: "validate policy.yaml and gates.yaml", load: (): Promise<CommandModule> => import("../commands/config.js") },
  { name: "feature", summary: "create, list, show features and set their status", load: (): Promise<CommandModule> => import("../commands/feature.js") },
  { name: "run", summary: "start, heartbeat, stop and inspect the run lease", load: (): Promise<CommandModule> => import("../commands/run.js") },
  { name: "session", summary: "assign agent sessions to features in the active run", load: (): Promise<CommandModule> => import("../commands/session.js") },
  { name: "checkpoint", summary: "validate, rank, update and resume skill checkpoints (.checkpoints/<skill>.checkpoint.json)", load: (): Promise<CommandModule> => import("../commands/checkpoint.js") },
  { name: "gates", summary: "run a gate mode from gates.yaml and record its evidence", load: (): Promise<CommandModule> => import("../commands/gates.js") },
  { name: "evidence", summary: "show, verify, attest, anchor and prove gate evidence", load: (): Promise<CommandModule> => import("../commands/evidence.js") },
  { name: "keys", summary: "the Ed25519 key that signs attestations and anchors (init, list)", load: (): Promise<CommandModule> => import("../commands/keys.js") },
  { name: "replay", summary: "show a run's timeline of tool calls (--list runs, --follow a live run)", load: (): Promise<CommandModule> => import("../commands/replay.js") },
  { name: "state", summary: "the state just after a step of a run, rebuilt from the record (--diff what changed between two steps)", load: (): Promise<CommandModule> => import("../commands/state.js") },
  { name: "export", summary: "send runs as OpenTelemetry GenAI traces over OTLP (or to an OTLP file), incrementally", load: (): Promise<CommandModule> => import("../commands/export.js") },
  { name: "search", summary: "find runs, steps, checkpoints, memory sections, doctor findings and gate results by words and filters, newest first", load: (): Promise<CommandModule> => import("../commands/search.js") },
  { name: "report", summary: "the timeline you can look at: one offline HTML file (waterfall, filters, features, checkpoints, doctor), --serve live, --diff two runs", load: (): Promise<CommandModule> => import("../commands/report.js") },
  { name: "doctor", summary: "run every check (DRIFT_*, CONT_*, CKPT_*) and persist the report", load: (): Promise<CommandModule> => import("../commands/doctor.js") },
  { name: "continuity", summary: "diagnose memory/CURRENT_STATE.md (memory-continuity protocol): continuity doctor", load: (): Promise<CommandModule> => import("../commands/continuity.js") },
  { name: "migrate", summary: "rewrite older timelines and gates.yaml into the shapes the upstream orchestrator reads (once, with a backup)", load: (): Promise<CommandModule> => import("../commands/migrate.js") },
  { name: "sync", summary: "push this workspace's records to a git remote (refs/aop/records/<id>), pull other workspaces' records read-only, status, prune", load: (): Promise<CommandModule> => import("../commands/sync.js") },
  { name: "tools", summary: "list the tool catalog; --write-docs regenerates tools.md", load: (): Promise<CommandModule> => import("../commands/tools.js") },
  { name: "call", summary: "call any tool with JSON arguments (in-process or --transport mcp)", load: (): Promise<CommandModule> => import("../commands/call.js") },
  { name: "integrate", summary: "wire aop into Claude Code, Codex, Gemini CLI, Cursor, opencode or OpenClaw (hooks and MCP server config)", load: (): Promise<CommandModule> => import("../commands/integrate.js") },
  { name: "schedule", summary: "print a crontab line, a systemd timer and CI jobs that run aop doctor --strict --json and keep the report", load: (): Promise<CommandModule> => import("../commands/schedule.js") },
  { name: "agent", summary: "what an agent starts from and writes before stopping: the orientation, the resume and handoff prompts", load: (): Promise<CommandModule> => import("../commands/agent.js") },
  { name: "handoff", summary: "end a session: check that the checkpoint and CURRENT_STATE.md say where the work stands, write the handoff note, publish it", load: (): Promise<CommandModule> => import("../commands/handoff.js") },
  { name: "resume", summary: "start from a pulled workspace's handoff note (--from ORIGIN): objective, next action, open decisions, last run", load: (): Promise<CommandModule> => import("../commands/resume.js") },
  { name: "hook", summary: "hook handler for Claude Code, Codex, Gemini CLI, Cursor, opencode and OpenClaw: session timeline, orientation, compaction instructions, stop reminders", load: (): Promise<CommandModule> => import("../commands/hook.js") },
  { name: "mcp", summary: "serve every tool, the orientation resources and the resume/handoff prompts over MCP (stdio, or Streamable HTTP with --http)", load: (): Promise<CommandModule> => import("../commands/mcp.js") },
  // Registered with every other command in full: the script it prints is generated from them.
  { name: "completion", summary: "print a bash, zsh or fish completion script for aop, checkpoint and continuity-doctor", load: (): Promise<CommandModule> => import("../commands/completion.js"), needsEveryCommand: true },
] as const;

/** Global flags that take a value, so their values are not mistaken for a command name. */
const VALUE_FLAGS = new Set(AOP_GLOBAL_FLAGS.filter((f) => "value" in f).map((f) => `--${f.flag}`));

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
