// What `aop integrate` writes for each client, as merges over the existing config. Pure: values in,
// values out. A merge keeps every existing key and hook and is idempotent.
import type { Launcher } from "./aop-command.js";
import { shellCommand } from "./aop-command.js";
import { opencodePluginSource } from "./opencode-plugin.js";
import { OPENCLAW_PLUGIN_DIR, openclawPluginManifest, openclawPluginPackage, openclawPluginSource } from "./openclaw-plugin.js";

export type ClientName = "claude" | "codex" | "gemini" | "cursor" | "opencode" | "openclaw";
export const CLIENTS: ClientName[] = ["claude", "codex", "gemini", "cursor", "opencode", "openclaw"];

export const CLAUDE_HOOK_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionDenied", "PreCompact", "SubagentStart", "SubagentStop", "Stop", "SessionEnd"] as const;
const TOOL_HOOK_EVENTS = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionDenied"]);
/** The Codex events aop acts on (Codex 0.171's hooks.json; its payloads follow Claude Code's). */
const CODEX_HOOK_EVENTS = ["SessionStart", "UserPromptSubmit", "PostToolUse", "PreCompact", "SubagentStop", "Stop"] as const;
/** The Gemini CLI events aop acts on (`hooks` of .gemini/settings.json). */
const GEMINI_HOOK_EVENTS = ["SessionStart", "BeforeAgent", "AfterTool", "PreCompress", "AfterAgent", "SessionEnd"] as const;
/** The Cursor events aop acts on (.cursor/hooks.json): the generic tool events cover every tool. */
const CURSOR_HOOK_EVENTS = ["sessionStart", "beforeSubmitPrompt", "postToolUse", "postToolUseFailure", "preCompact", "subagentStart", "subagentStop", "stop", "sessionEnd"] as const;
export const SERVER_NAME = "aop";

export type Merged = { value: unknown; changed: boolean; notes: string[] };

export interface PlannedFile {
  /** Workspace-relative path. */
  path: string;
  format: "json" | "toml" | "text";
  /** Returns the merged document and whether anything changed (with `remove`: aop's entries taken out). */
  merge(existing: unknown, remove: boolean): Merged;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

interface HookGroup {
  matcher?: string;
  hooks?: { type?: string; command?: string; timeout?: number }[];
}

interface GroupStyle {
  events: readonly string[];
  /** The hook handler that runs `command` (each client's fields). */
  handler(command: string): Record<string, unknown>;
  /** Events whose group takes a tool matcher. */
  matcher?: { events: ReadonlySet<string>; value: string };
}

/**
 * Adds our command to each hook event unless some group of that event already runs it (Claude Code,
 * Codex and Gemini CLI share this layout: event → groups → hooks). With `remove`, takes out every
 * handler that runs exactly our command, and the groups and events that leaves empty; nothing else.
 */
function mergeHookGroups(existing: unknown, command: string, style: GroupStyle, remove: boolean): Merged {
  const settings: Json = isObject(existing) ? structuredClone(existing) : {};
  const notes: string[] = [];
  if (settings.hooks !== undefined && !isObject(settings.hooks)) throw new Error("its `hooks` is not an object");
  const hooks: Json = isObject(settings.hooks) ? settings.hooks : {};
  let changed = false;
  const events = remove ? Object.keys(hooks) : style.events;
  for (const event of events) {
    const groups = hooks[event] ?? [];
    if (!Array.isArray(groups)) throw new Error(`its hooks.${event} is not a list`);
    const runsOurs = (g: HookGroup) => Array.isArray(g?.hooks) && g.hooks.some((h) => h?.command === command);
    if (remove) {
      if (!(groups as HookGroup[]).some(runsOurs)) continue;
      const kept = (groups as HookGroup[]).flatMap((g) => {
        if (!runsOurs(g)) return [g];
        const rest = g.hooks!.filter((h) => h?.command !== command);
        return rest.length > 0 ? [{ ...g, hooks: rest }] : [];
      });
      if (kept.length > 0) hooks[event] = kept;
      else delete hooks[event];
      changed = true;
      continue;
    }
    if ((groups as HookGroup[]).some(runsOurs)) continue;
    const matcher = style.matcher?.events.has(event) ? { matcher: style.matcher.value } : {};
    hooks[event] = [...groups, { ...matcher, hooks: [style.handler(command)] }];
    changed = true;
  }
  if (remove && Object.keys(hooks).length === 0) delete settings.hooks;
  else settings.hooks = hooks;
  if (!changed) notes.push(remove ? "no aop hooks to remove" : "aop hooks already present");
  return { value: settings, changed, notes };
}

const CLAUDE_STYLE: GroupStyle = { events: CLAUDE_HOOK_EVENTS, handler: (command) => ({ type: "command", command, timeout: 10 }), matcher: { events: TOOL_HOOK_EVENTS, value: "*" } };

export function mergeClaudeHooks(existing: unknown, command: string, remove = false): Merged & { value: Json } {
  return mergeHookGroups(existing, command, CLAUDE_STYLE, remove) as Merged & { value: Json };
}

/** Codex's hooks.json: Claude Code's layout; a group without a matcher matches every tool. */
function mergeCodexHooks(existing: unknown, command: string, remove = false): Merged {
  return mergeHookGroups(existing, command, { events: CODEX_HOOK_EVENTS, handler: (c) => ({ type: "command", command: c, timeout: 10 }) }, remove);
}

/** Gemini CLI's settings.json hooks: Claude Code's layout, a `name` per handler and timeouts in milliseconds. */
function mergeGeminiHooks(existing: unknown, command: string, remove = false): Merged {
  return mergeHookGroups(existing, command, { events: GEMINI_HOOK_EVENTS, handler: (c) => ({ type: "command", name: "aop", command: c, timeout: 10_000 }), matcher: { events: new Set(["AfterTool"]), value: "*" } }, remove);
}

/** Cursor's hooks.json: `{version: 1, hooks: {event: [{command}]}}`, one flat list per event. */
function mergeCursorHooks(existing: unknown, command: string, remove = false): Merged {
  const doc: Json = isObject(existing) ? structuredClone(existing) : {};
  if (doc.hooks !== undefined && !isObject(doc.hooks)) throw new Error("its `hooks` is not an object");
  const hooks: Json = isObject(doc.hooks) ? doc.hooks : {};
  let changed = false;
  for (const event of remove ? Object.keys(hooks) : CURSOR_HOOK_EVENTS) {
    const list = hooks[event] ?? [];
    if (!Array.isArray(list)) throw new Error(`its hooks.${event} is not a list`);
    const ours = (h: unknown) => isObject(h) && h.command === command;
    if (remove) {
      if (!list.some(ours)) continue;
      const kept = list.filter((h) => !ours(h));
      if (kept.length > 0) hooks[event] = kept;
      else delete hooks[event];
      changed = true;
    } else if (!list.some(ours)) {
      hooks[event] = [...list, { command, timeout: 10 }];
      changed = true;
    }
  }
  if (!remove && doc.version === undefined) doc.version = 1;
  if (remove && Object.keys(hooks).length === 0) {
    delete doc.hooks;
    // `version` alone is what aop wrote around its hooks: nothing of the user's is left.
    if (changed && Object.keys(doc).length === 1 && doc.version === 1) delete doc.version;
  } else doc.hooks = hooks;
  return { value: doc, changed, notes: changed ? [] : [remove ? "no aop hooks to remove" : "aop hooks already present"] };
}

/**
 * Adds `<key>.aop` unless an entry of that name exists (then it is kept as the user left it). With
 * `remove`, takes it out only when it is exactly the entry aop writes.
 */
export function mergeMcpServers(existing: unknown, server: Record<string, unknown>, remove = false, key = "mcpServers"): Merged & { value: Json } {
  const doc: Json = isObject(existing) ? structuredClone(existing) : {};
  if (doc[key] !== undefined && !isObject(doc[key])) throw new Error(`its \`${key}\` is not an object`);
  const servers: Json = isObject(doc[key]) ? doc[key] : {};
  if (remove) {
    if (servers[SERVER_NAME] === undefined) return { value: doc, changed: false, notes: ["no aop server to remove"] };
    if (JSON.stringify(servers[SERVER_NAME]) !== JSON.stringify(server)) return { value: doc, changed: false, notes: ["the `aop` server entry differs from aop's; kept as is"] };
    delete servers[SERVER_NAME];
    if (Object.keys(servers).length === 0) delete doc[key];
    return { value: doc, changed: true, notes: [] };
  }
  if (servers[SERVER_NAME] !== undefined) {
    const same = JSON.stringify(servers[SERVER_NAME]) === JSON.stringify(server);
    return { value: doc, changed: false, notes: [same ? "aop server already present" : "an `aop` server entry exists and differs; kept as is"] };
  }
  servers[SERVER_NAME] = server;
  doc[key] = servers;
  return { value: doc, changed: true, notes: [] };
}

/**
 * Approves the project's `aop` server for this user only (`.claude/settings.local.json`): Claude Code
 * shows a `.mcp.json` server as "Pending approval" until it is in `enabledMcpjsonServers`.
 */
function mergeMcpApproval(existing: unknown, remove = false): Merged {
  const settings: Json = isObject(existing) ? structuredClone(existing) : {};
  if (remove) {
    const list = settings.enabledMcpjsonServers;
    if (!Array.isArray(list) || !list.includes(SERVER_NAME)) return { value: settings, changed: false, notes: ["aop is not approved here"] };
    settings.enabledMcpjsonServers = list.filter((n) => n !== SERVER_NAME);
    return { value: settings, changed: true, notes: [] };
  }
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
function mergeCodexServers(existing: unknown, server: { command: string; args: string[] }, remove = false): Merged {
  const doc: Json = isObject(existing) ? existing : {};
  if (doc.mcp_servers !== undefined && !isObject(doc.mcp_servers)) throw new Error("its `mcp_servers` is not a table");
  const servers = isObject(doc.mcp_servers) ? doc.mcp_servers : {};
  if (remove) {
    const same = JSON.stringify(servers[SERVER_NAME]) === JSON.stringify(server);
    if (!same) return { value: doc, changed: false, notes: [servers[SERVER_NAME] === undefined ? "no [mcp_servers.aop] table to remove" : "the [mcp_servers.aop] table differs from aop's; kept as is"] };
    const { [SERVER_NAME]: _ours, ...rest } = servers;
    return { value: { ...doc, mcp_servers: rest }, changed: true, notes: [] };
  }
  if (servers[SERVER_NAME] !== undefined) return { value: doc, changed: false, notes: ["an [mcp_servers.aop] table already exists; kept as is"] };
  return { value: { ...doc, mcp_servers: { ...servers, [SERVER_NAME]: server } }, changed: true, notes: [] };
}

export const CLAUDE_LOCAL_SETTINGS = ".claude/settings.local.json";

export function planFor(client: ClientName, launcher: Launcher, root: string, options: { approveMcp?: boolean } = {}): PlannedFile[] {
  const mcp = (withRoot: boolean) => ({ command: launcher.command, args: [...launcher.args, "mcp", ...(withRoot ? ["--root", root] : [])] });
  const hook = shellCommand(launcher, ["hook", client]);
  switch (client) {
    case "claude":
      return [
        { path: ".claude/settings.json", format: "json", merge: (e, remove) => mergeClaudeHooks(e, hook, remove) },
        // Claude Code starts project servers in the project folder, so no --root: the file can be shared.
        { path: ".mcp.json", format: "json", merge: (e, remove) => mergeMcpServers(e, mcp(false), remove) },
        ...(options.approveMcp ? [{ path: CLAUDE_LOCAL_SETTINGS, format: "json" as const, merge: mergeMcpApproval }] : []),
      ];
    case "codex":
      return [
        { path: ".codex/config.toml", format: "toml", merge: (e, remove) => mergeCodexServers(e, mcp(true), remove) },
        { path: ".codex/hooks.json", format: "json", merge: (e, remove) => mergeCodexHooks(e, hook, remove) },
      ];
    case "gemini":
      // One file: Gemini CLI reads its project's hooks and MCP servers from .gemini/settings.json.
      return [
        {
          path: ".gemini/settings.json",
          format: "json",
          merge: (e, remove) => {
            const servers = mergeMcpServers(e, mcp(true), remove);
            const hooks = mergeGeminiHooks(servers.value, hook, remove);
            return { value: hooks.value, changed: servers.changed || hooks.changed, notes: [...servers.notes, ...hooks.notes] };
          },
        },
      ];
    case "cursor":
      return [
        { path: ".cursor/hooks.json", format: "json", merge: (e, remove) => mergeCursorHooks(e, hook, remove) },
        { path: ".cursor/mcp.json", format: "json", merge: (e, remove) => mergeMcpServers(e, mcp(true), remove) },
      ];
    case "opencode":
      return [
        // opencode.json: `mcp.<name>` is `{type: "local", command: [argv…]}`.
        { path: "opencode.json", format: "json", merge: (e, remove) => mergeMcpServers(e, { type: "local", command: [mcp(true).command, ...mcp(true).args], enabled: true }, remove, "mcp") },
        { path: OPENCODE_PLUGIN, format: "text", merge: (e, remove) => mergePluginFile(e, opencodePluginSource(hook), remove) },
      ];
    case "openclaw":
      // OpenClaw discovers plugins in <workspace>/.openclaw/extensions/; its MCP servers, plugin
      // enablement and cron jobs live in the user's Gateway config and state, which aop leaves to
      // OpenClaw's own CLI (the next steps print the commands; docs/agents.md).
      return [
        { path: `${OPENCLAW_PLUGIN_DIR}/package.json`, format: "text", merge: (e, remove) => mergePluginFile(e, openclawPluginPackage(), remove) },
        { path: `${OPENCLAW_PLUGIN_DIR}/openclaw.plugin.json`, format: "text", merge: (e, remove) => mergePluginFile(e, openclawPluginManifest(), remove) },
        { path: `${OPENCLAW_PLUGIN_DIR}/index.js`, format: "text", merge: (e, remove) => mergePluginFile(e, openclawPluginSource(hook, root), remove) },
      ];
  }
}

const OPENCODE_PLUGIN = ".opencode/plugin/aop.js";

/** A file aop owns whole: written when missing, removed only when it is exactly aop's, never overwritten. */
function mergePluginFile(existing: unknown, source: string, remove: boolean): Merged {
  if (remove) {
    if (existing === undefined) return { value: undefined, changed: false, notes: ["no aop plugin to remove"] };
    if (existing !== source) return { value: existing, changed: false, notes: ["the file differs from aop's plugin; kept as is"] };
    return { value: undefined, changed: true, notes: [] };
  }
  if (existing === undefined) return { value: source, changed: true, notes: [] };
  if (existing === source) return { value: existing, changed: false, notes: ["aop plugin already present"] };
  // A plugin an earlier aop wrote (its first line says so) is aop's to upgrade; the diff shows the change.
  if (typeof existing === "string" && existing.startsWith(AOP_PLUGIN_HEADER)) return { value: source, changed: true, notes: ["aop's plugin from an earlier version; replaced with this version's"] };
  return { value: existing, changed: false, notes: ["the file differs from aop's plugin; kept as is"] };
}

/** How every plugin source `aop integrate` writes begins (opencode-plugin.ts, openclaw-plugin.ts). */
const AOP_PLUGIN_HEADER = "// Written by `aop integrate ";
