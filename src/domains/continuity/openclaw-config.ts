// The workspaces an OpenClaw installation uses, from its `openclaw.json` (JSON5): the default
// workspace and every agent's. What is supported is listed in docs/continuity.md ("OpenClaw config").
import path from "node:path";
import { idProblem } from "../../core/ids.js";
import { describeRefusal, readTextBounded, refusalCode } from "../../store/read-text-bounded.js";
import { expandUserPath, openclawStateDir, type HomeEnv } from "./home-paths.js";

export interface OpenClawWorkspace {
  path: string;
  /** The agent using it (null for the default workspace when no listed agent claims it). */
  agentId: string | null;
  /** True when the path was written in the config (or `OPENCLAW_WORKSPACE_DIR`); false when derived. */
  configured: boolean;
  /** Where the path came from, e.g. `agents.list[1].workspace`, for messages. */
  origin: string;
  /** The agent's own session transcripts folder, when the workspace belongs to one agent. */
  sessionsDir?: string;
}

export interface OpenClawWorkspaces {
  stateDir: string;
  configFile: string;
  configFound: boolean;
  workspaces: OpenClawWorkspace[];
  /** What is wrong with the config file (unparseable, wrong types); the valid parts are still used. */
  problems: string[];
}

const MAX_CONFIG_BYTES = 1024 * 1024;

interface AgentEntry {
  id: string;
  workspace?: string;
  origin: string;
}

/** Reads `<state dir>/openclaw.json` and resolves the workspaces it names. Never throws on bad content. */
export async function readOpenClawWorkspaces(home: HomeEnv): Promise<OpenClawWorkspaces> {
  const stateDir = openclawStateDir(home);
  const configFile = path.join(stateDir, "openclaw.json");
  const read = readTextBounded(configFile, MAX_CONFIG_BYTES);
  const base = { stateDir, configFile };
  if (read.status === "missing") return { ...base, configFound: false, ...resolveOpenClawWorkspaces({}, stateDir, home) };
  if (read.status !== "ok") {
    return { ...base, configFound: true, workspaces: [], problems: [`${describeRefusal(read)} [${refusalCode(read)}]`] };
  }
  if (read.binary) return { ...base, configFound: true, workspaces: [], problems: ["is not text (binary data)"] };
  if (read.truncated) return { ...base, configFound: true, workspaces: [], problems: [`is ${read.size} bytes; the limit is ${MAX_CONFIG_BYTES}`] };
  const parsed = await parseJson5(read.text);
  if (!parsed.ok) return { ...base, configFound: true, workspaces: [], problems: [parsed.message] };
  return { ...base, configFound: true, ...resolveOpenClawWorkspaces(parsed.value, stateDir, home) };
}

async function parseJson5(text: string): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }; // most configs are plain JSON: skip loading the JSON5 parser
  } catch {
    try {
      const { default: JSON5 } = await import("json5");
      return { ok: true, value: JSON5.parse(text) as unknown };
    } catch (err) {
      return { ok: false, message: `is not valid JSON5: ${(err as Error).message.replace(/^JSON5: /, "")}` };
    }
  }
}

/**
 * The workspaces of a parsed config. Follows OpenClaw's rules: the default workspace is
 * `agents.defaults.workspace` (legacy `agent.workspace`), else `$OPENCLAW_WORKSPACE_DIR`, else
 * `<state dir>/workspace`; an agent's is its own `workspace`, else — when it is the only agent — the
 * default one, else `<agents.defaults.workspace>/<id>` or `<state dir>/workspace-<id>`.
 */
export function resolveOpenClawWorkspaces(config: unknown, stateDir: string, home: HomeEnv): { workspaces: OpenClawWorkspace[]; problems: string[] } {
  const problems: string[] = [];
  const root = asObject(config, "the top level", problems) ?? {};
  const agents = asObject(root.agents, "agents", problems) ?? {};
  const defaults = asObject(agents.defaults, "agents.defaults", problems) ?? {};
  const legacy = asObject(root.agent, "agent", problems) ?? {};
  const toPath = (value: string) => path.resolve(stateDir, expandUserPath(value, home));

  const configuredRoot = asString(defaults.workspace, "agents.defaults.workspace", problems) ?? asString(legacy.workspace, "agent.workspace", problems);
  const envRoot = home.env.OPENCLAW_WORKSPACE_DIR || undefined;
  const defaultWorkspace: OpenClawWorkspace = configuredRoot !== undefined
    ? { path: toPath(configuredRoot), agentId: null, configured: true, origin: defaults.workspace !== undefined ? "agents.defaults.workspace" : "agent.workspace" }
    : envRoot !== undefined
      ? { path: toPath(envRoot), agentId: null, configured: true, origin: "$OPENCLAW_WORKSPACE_DIR" }
      : { path: path.join(stateDir, "workspace"), agentId: null, configured: false, origin: "default workspace" };

  const entries = agentEntries(agents, problems);
  const workspaces: OpenClawWorkspace[] = [defaultWorkspace];
  for (const agent of entries) {
    const sessionsDir = path.join(stateDir, "agents", agent.id, "sessions");
    let ws: OpenClawWorkspace;
    if (agent.workspace !== undefined) ws = { path: toPath(agent.workspace), agentId: agent.id, configured: true, origin: `${agent.origin}.workspace`, sessionsDir };
    else if (entries.length === 1) ws = { ...defaultWorkspace, agentId: agent.id, sessionsDir };
    else if (configuredRoot !== undefined) ws = { path: path.join(defaultWorkspace.path, agent.id), agentId: agent.id, configured: false, origin: `${agent.origin} without a workspace`, sessionsDir };
    else ws = { path: path.join(stateDir, `workspace-${agent.id}`), agentId: agent.id, configured: false, origin: `${agent.origin} without a workspace`, sessionsDir };
    const same = workspaces.findIndex((w) => w.path === ws.path);
    if (same === -1) workspaces.push(ws);
    else if (workspaces[same]!.agentId === null) workspaces[same] = { ...ws, configured: ws.configured || workspaces[same]!.configured };
    else workspaces[same] = { ...workspaces[same]!, sessionsDir: undefined }; // shared by two agents: use every transcript
  }
  return { workspaces: workspaces.map(dropUndefinedSessions), problems };
}

/** `agents.list[]` entries, then `agents.entries.<id>` ones not already listed. */
function agentEntries(agents: Record<string, unknown>, problems: string[]): AgentEntry[] {
  const found: AgentEntry[] = [];
  const add = (value: unknown, origin: string, idFromKey?: string) => {
    const entry = asObject(value, origin, problems);
    if (!entry) return;
    const id = idFromKey ?? asString(entry.id, `${origin}.id`, problems);
    if (id === undefined) {
      if (idFromKey === undefined && entry.id === undefined) problems.push(`${origin}.id is missing`);
      return;
    }
    const bad = idProblem(id);
    if (bad) {
      problems.push(`${origin}: agent id ${JSON.stringify(id)} ${bad}`);
      return;
    }
    const workspace = asString(entry.workspace, `${origin}.workspace`, problems);
    const existing = found.find((a) => a.id === id);
    if (existing) existing.workspace ??= workspace;
    else found.push({ id, origin, ...(workspace === undefined ? {} : { workspace }) });
  };
  if (agents.list !== undefined) {
    if (Array.isArray(agents.list)) agents.list.forEach((item, i) => add(item, `agents.list[${i}]`));
    else problems.push(`agents.list must be an array (got ${typeName(agents.list)})`);
  }
  const byKey = asObject(agents.entries, "agents.entries", problems);
  if (byKey) for (const [id, value] of Object.entries(byKey)) add(value, `agents.entries.${id}`, id);
  return found;
}

function dropUndefinedSessions(ws: OpenClawWorkspace): OpenClawWorkspace {
  if (ws.sessionsDir !== undefined) return ws;
  const { sessionsDir: _drop, ...rest } = ws;
  return rest;
}

function asObject(value: unknown, where: string, problems: string[]): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  problems.push(`${where} must be an object (got ${typeName(value)})`);
  return undefined;
}

function asString(value: unknown, where: string, problems: string[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  problems.push(`${where} must be a non-empty string (got ${typeName(value)})`);
  return undefined;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "string") return value.trim() === "" ? "an empty string" : "string";
  return typeof value;
}
