// What `aop integrate` writes for each client, as merges over the existing config. Pure: values in,
// values out. A merge keeps every existing key and hook and is idempotent.
import type { Launcher } from "./aop-command.js";
import { shellCommand } from "./aop-command.js";

export type ClientName = "claude" | "codex" | "cursor";
export const CLIENTS: ClientName[] = ["claude", "codex", "cursor"];

export const CLAUDE_HOOK_EVENTS = ["SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "PreCompact", "SubagentStart", "SubagentStop", "Stop", "SessionEnd"] as const;
const TOOL_HOOK_EVENTS = new Set(["PostToolUse", "PostToolUseFailure"]);
const SERVER_NAME = "aop";

export interface PlannedFile {
  /** Workspace-relative path. */
  path: string;
  format: "json" | "toml";
  /** Returns the merged document and whether anything changed. */
  merge(existing: unknown): { value: unknown; changed: boolean; notes: string[] };
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

interface HookGroup {
  matcher?: string;
  hooks?: { type?: string; command?: string; timeout?: number }[];
}

/** Adds our command to each hook event unless some group of that event already runs it. */
export function mergeClaudeHooks(existing: unknown, command: string): { value: Json; changed: boolean; notes: string[] } {
  const settings: Json = isObject(existing) ? structuredClone(existing) : {};
  const notes: string[] = [];
  if (settings.hooks !== undefined && !isObject(settings.hooks)) throw new Error("its `hooks` is not an object");
  const hooks: Json = isObject(settings.hooks) ? settings.hooks : {};
  let changed = false;
  for (const event of CLAUDE_HOOK_EVENTS) {
    const groups = hooks[event] ?? [];
    if (!Array.isArray(groups)) throw new Error(`its hooks.${event} is not a list`);
    const present = (groups as HookGroup[]).some((g) => Array.isArray(g?.hooks) && g.hooks.some((h) => h?.command === command));
    if (present) continue;
    const group: HookGroup = { ...(TOOL_HOOK_EVENTS.has(event) ? { matcher: "*" } : {}), hooks: [{ type: "command", command, timeout: 10 }] };
    hooks[event] = [...groups, group];
    changed = true;
  }
  settings.hooks = hooks;
  if (!changed) notes.push("aop hooks already present");
  return { value: settings, changed, notes };
}

/** Adds `mcpServers.aop` unless an entry of that name exists (then it is kept as the user left it). */
export function mergeMcpServers(existing: unknown, server: { command: string; args: string[] }): { value: Json; changed: boolean; notes: string[] } {
  const doc: Json = isObject(existing) ? structuredClone(existing) : {};
  if (doc.mcpServers !== undefined && !isObject(doc.mcpServers)) throw new Error("its `mcpServers` is not an object");
  const servers: Json = isObject(doc.mcpServers) ? doc.mcpServers : {};
  if (servers[SERVER_NAME] !== undefined) {
    const same = JSON.stringify(servers[SERVER_NAME]) === JSON.stringify(server);
    return { value: doc, changed: false, notes: [same ? "aop server already present" : "an `aop` server entry exists and differs; kept as is"] };
  }
  servers[SERVER_NAME] = server;
  doc.mcpServers = servers;
  return { value: doc, changed: true, notes: [] };
}

/**
 * Approves the project's `aop` server for this user only (`.claude/settings.local.json`): Claude Code
 * shows a `.mcp.json` server as "Pending approval" until it is in `enabledMcpjsonServers`.
 */
function mergeMcpApproval(existing: unknown): { value: Json; changed: boolean; notes: string[] } {
  const settings: Json = isObject(existing) ? structuredClone(existing) : {};
  const list = (key: string): unknown[] => {
    const v = settings[key];
    if (v !== undefined && !Array.isArray(v)) throw new Error(`its \`${key}\` is not a list`);
    return (v as unknown[] | undefined) ?? [];
  };
  if (list("disabledMcpjsonServers").includes(SERVER_NAME)) return { value: settings, changed: false, notes: ["aop is in disabledMcpjsonServers; kept as you set it"] };
  if (settings.enableAllProjectMcpServers === true || list("enabledMcpjsonServers").includes(SERVER_NAME)) return { value: settings, changed: false, notes: ["aop server already approved"] };
  settings.enabledMcpjsonServers = [...list("enabledMcpjsonServers"), SERVER_NAME];
  return { value: settings, changed: true, notes: [] };
}

/** What Claude Code settings say about the project's `aop` server. */
export function aopApprovalIn(settings: unknown): "approved" | "disabled" | "none" {
  if (!isObject(settings)) return "none";
  const has = (key: string) => Array.isArray(settings[key]) && (settings[key] as unknown[]).includes(SERVER_NAME);
  if (has("disabledMcpjsonServers")) return "disabled";
  return settings.enableAllProjectMcpServers === true || has("enabledMcpjsonServers") ? "approved" : "none";
}

/** Codex keeps MCP servers in TOML tables `[mcp_servers.<name>]`. */
function mergeCodexServers(existing: unknown, server: { command: string; args: string[] }): { value: Json; changed: boolean; notes: string[] } {
  const doc: Json = isObject(existing) ? existing : {};
  if (doc.mcp_servers !== undefined && !isObject(doc.mcp_servers)) throw new Error("its `mcp_servers` is not a table");
  const servers = isObject(doc.mcp_servers) ? doc.mcp_servers : {};
  if (servers[SERVER_NAME] !== undefined) return { value: doc, changed: false, notes: ["an [mcp_servers.aop] table already exists; kept as is"] };
  return { value: { ...doc, mcp_servers: { ...servers, [SERVER_NAME]: server } }, changed: true, notes: [] };
}

export const CLAUDE_LOCAL_SETTINGS = ".claude/settings.local.json";

export function planFor(client: ClientName, launcher: Launcher, root: string, options: { approveMcp?: boolean } = {}): PlannedFile[] {
  const mcp = (withRoot: boolean) => ({ command: launcher.command, args: [...launcher.args, "mcp", ...(withRoot ? ["--root", root] : [])] });
  switch (client) {
    case "claude":
      return [
        { path: ".claude/settings.json", format: "json", merge: (e) => mergeClaudeHooks(e, shellCommand(launcher, ["hook", "claude"])) },
        // Claude Code starts project servers in the project folder, so no --root: the file can be shared.
        { path: ".mcp.json", format: "json", merge: (e) => mergeMcpServers(e, mcp(false)) },
        ...(options.approveMcp ? [{ path: CLAUDE_LOCAL_SETTINGS, format: "json" as const, merge: mergeMcpApproval }] : []),
      ];
    case "codex":
      return [{ path: ".codex/config.toml", format: "toml", merge: (e) => mergeCodexServers(e, mcp(true)) }];
    case "cursor":
      return [{ path: ".cursor/mcp.json", format: "json", merge: (e) => mergeMcpServers(e, mcp(true)) }];
  }
}
