// `aop integrate <client>`: compute each config file's merged content; with --write, write them.
// Every file is read and checked before anything is written: one unparseable file stops them all.
import { AopError } from "../../core/errors.js";
import { removeFile, writeFileAtomic } from "../../store/atomic-write.js";
import { readTextOrNull } from "../../store/file-hash.js";
import { readBytesBounded } from "../../store/read-text-bounded.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { aopLauncher, shellCommand, type Launcher } from "./aop-command.js";
import { aopApprovalIn, CLAUDE_LOCAL_SETTINGS, planFor, type ClientName } from "./client-configs.js";
import { lineDiff } from "./config-diff.js";
import { integrationNextSteps, type ClaudeApproval, type OpenclawSetup } from "./next-steps.js";

export interface IntegrationFile {
  path: string;
  action: "create" | "update" | "delete" | "unchanged";
  notes: string[];
  /** The file's content after the change ("" for a file to delete). */
  content: string;
  /** The change as a line diff (docs/agents.md), empty when unchanged. */
  diff: string;
}

const MAX_CONFIG_FILE_BYTES = 4 * 1024 * 1024;

async function parse(format: "json" | "toml" | "text", text: string): Promise<unknown> {
  if (format === "text") return text;
  if (format === "json") return JSON.parse(text);
  const { parse: parseToml } = await import("smol-toml");
  return parseToml(text);
}

function tomlTable(name: string, server: { command: string; args: string[] }): string {
  return `\n[mcp_servers.${name}]\ncommand = ${JSON.stringify(server.command)}\nargs = [${server.args.map((a) => JSON.stringify(a)).join(", ")}]\n`;
}

export interface IntegrationPlan {
  files: IntegrationFile[];
  /** What the user still has to do once the files are written. */
  next_steps: string[];
}

export async function planIntegration(layout: WorkspaceLayout, client: ClientName, env: NodeJS.ProcessEnv = process.env, options: { approveMcp?: boolean; remove?: boolean } = {}): Promise<IntegrationPlan> {
  const out: IntegrationFile[] = [];
  const remove = options.remove === true;
  for (const planned of planFor(client, aopLauncher(env), layout.root, options)) {
    const file = layout.resolveInside(planned.path)!;
    // A special file, a link out of the workspace or an oversized file throws its own code.
    const text = readTextOrNull(file, MAX_CONFIG_FILE_BYTES);
    let existing: unknown = undefined;
    if (text !== null && text.trim() !== "") {
      try {
        existing = await parse(planned.format, text);
      } catch (err) {
        throw new AopError("invalid_argument", `${planned.path} cannot be parsed as ${planned.format.toUpperCase()} (${(err as Error).message.split("\n")[0]}); nothing was changed`, {
          hint: `fix or move ${planned.path}, then run aop integrate ${client} again`,
        });
      }
    }
    let merged;
    try {
      merged = planned.merge(existing, remove);
    } catch (err) {
      throw new AopError("invalid_argument", `${planned.path}: ${(err as Error).message}; nothing was changed`, { hint: `fix ${planned.path} by hand` });
    }
    if (remove && text === null) continue; // nothing there: nothing to remove
    let content: string;
    if (!merged.changed && text !== null) content = text;
    else if (planned.format === "text") content = typeof merged.value === "string" ? merged.value : "";
    else if (planned.format === "json") content = JSON.stringify(merged.value, null, 2) + "\n";
    else content = tomlContent(text, planned.path, remove, existing, merged);
    if (remove && merged.changed && content === text) merged = { ...merged, changed: false, notes: ["the [mcp_servers.aop] table was not written by aop (its text differs); kept as is"] };
    // A file --remove leaves with nothing in it (an empty object, an empty table) goes.
    const emptied = remove && merged.changed && (planned.format === "text" ? merged.value === undefined : content.trim() === "" || content.trim() === "{}");
    const action = !merged.changed ? "unchanged" : text === null ? "create" : emptied ? "delete" : "update";
    if (emptied) content = "";
    out.push({ path: planned.path, action, notes: merged.notes, content, diff: action === "unchanged" ? "" : lineDiff(text ?? "", content) });
  }
  const approval = client === "claude" ? claudeApproval(layout, out) : undefined;
  const openclaw = client === "openclaw" ? await openclawSetup(layout.root, aopLauncher(env)) : undefined;
  return { files: out, next_steps: remove ? [] : integrationNextSteps(client, layout.root, approval, openclaw) };
}

/** OpenClaw's MCP entry for aop and the daily doctor job in its scheduler (docs/schedule.md). */
async function openclawSetup(root: string, launcher: Launcher): Promise<OpenclawSetup> {
  const { buildSchedule } = await import("../doctor/index.js");
  const localCommand = shellCommand(launcher, []);
  const schedule = buildSchedule({ every: "daily", hour: 6, minute: 0, workspace: root, localCommand, ciCommand: localCommand, report: "aop-doctor.json" });
  return { server: { command: launcher.command, args: [...launcher.args, "mcp", "--root", root] }, cron: schedule.openclaw };
}

/** Whether the Claude Code settings (as they will be after this plan) approve or disable the aop server. */
function claudeApproval(layout: WorkspaceLayout, planned: IntegrationFile[]): ClaudeApproval {
  const documents = [".claude/settings.json", CLAUDE_LOCAL_SETTINGS].map((rel) => {
    const text = planned.find((f) => f.path === rel)?.content ?? readSmall(layout.resolveInside(rel)!);
    try {
      return text === null ? null : (JSON.parse(text) as unknown);
    } catch {
      return null;
    }
  });
  const states = documents.map(aopApprovalIn);
  return { approved: states.includes("approved"), disabled: states.includes("disabled") };
}

/** A small config file's text; null when it is missing, not a regular file inside the workspace, or too large. */
function readSmall(file: string): string | null {
  const read = readBytesBounded(file, MAX_CONFIG_FILE_BYTES);
  return read.status === "ok" ? read.bytes.toString("utf8") : null;
}

/**
 * The TOML text with our table appended (instead of re-serialising, so the user's comments and layout
 * survive), or, with `remove`, with exactly the table aop appends taken out (any other text stays).
 */
function tomlContent(text: string | null, _path: string, remove: boolean, existing: unknown, merged: { value: unknown }): string {
  if (remove) {
    const servers = (existing as { mcp_servers?: Record<string, { command: string; args: string[] }> } | undefined)?.mcp_servers;
    const ours = servers?.aop ? tomlTable("aop", servers.aop) : null;
    if (!text || !ours) return text ?? "";
    if (text.includes(ours)) return text.replace(ours, "").replace(/^\n+/, "");
    if (text.startsWith(ours.trimStart())) return text.slice(ours.trimStart().length).replace(/^\n+/, "");
    return text;
  }
  const server = (merged.value as { mcp_servers: Record<string, { command: string; args: string[] }> }).mcp_servers.aop!;
  const table = tomlTable("aop", server);
  return text === null || text.trim() === "" ? table.trimStart() : text.replace(/\n*$/, "\n") + table;
}

export function writeIntegration(layout: WorkspaceLayout, files: IntegrationFile[]): void {
  for (const f of files) {
    if (f.action === "delete") removeFile(layout.resolveInside(f.path)!);
    else if (f.action !== "unchanged") writeFileAtomic(layout.resolveInside(f.path)!, f.content);
  }
}
