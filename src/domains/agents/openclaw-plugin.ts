// The OpenClaw plugin `aop integrate openclaw` writes into the project's `.openclaw/extensions/aop/`
// (OpenClaw's workspace plugin root). OpenClaw runs plugins inside its Gateway and has no hook commands,
// so the plugin registers typed hooks (`api.on`) and hands each event aop acts on to
// `aop hook openclaw` as one JSON object (hook-clients/openclaw.ts reads it), without blocking the
// Gateway: the child runs asynchronously, bounded to 10 s; a session's hooks run one after another, in
// the order its events came, and different sessions' side by side. What the hook prints is used:
// `{context}` (at session_start, or at a session's first prompt when no session_start came) is returned
// by before_prompt_build as `prependSystemContext` for that session's turns; `{reminder}` at
// before_agent_finalize asks for one more model pass (mode block) or is logged (mode message). Events are
// recorded in the project the plugin lives in. Pure: the sources are strings.

/** The plugin's id, in its manifest and in OpenClaw's `plugins.entries`. */
const OPENCLAW_PLUGIN_ID = "aop";
export const OPENCLAW_PLUGIN_DIR = ".openclaw/extensions/aop";

export function openclawPluginManifest(): string {
  const manifest = {
    id: OPENCLAW_PLUGIN_ID,
    name: "aop-continuity",
    description: "Records the session's timeline with aop, adds aop's orientation at session start and reminds to update memory/CURRENT_STATE.md before a turn ends. Written by `aop integrate openclaw`.",
    activation: { onStartup: true },
    configSchema: { type: "object", additionalProperties: false },
  };
  return JSON.stringify(manifest, null, 2) + "\n";
}

export function openclawPluginPackage(): string {
  const pkg = { name: "aop-openclaw-plugin", version: "1.0.0", private: true, type: "module", description: "Written by `aop integrate openclaw` (aop-continuity).", openclaw: { extensions: ["./index.js"] } };
  return JSON.stringify(pkg, null, 2) + "\n";
}

/**
 * The plugin's entry. It names the project by absolute path (as the MCP entry's `--root` does):
 * OpenClaw loads a plugin from a copy under its state folder, so the plugin's own location says nothing.
 */
export function openclawPluginSource(hookCommand: string, project: string): string {
  return `// Written by \`aop integrate openclaw\` (aop-continuity); \`aop integrate openclaw --remove\` removes it.
import { spawn } from "node:child_process";

const HOOK = ${JSON.stringify(hookCommand)};
// The project aop records into (\`aop integrate openclaw\` ran there).
const PROJECT = ${JSON.stringify(project)};

function hook(payload) {
  return new Promise((resolve) => {
    let out = "";
    let child;
    try {
      child = spawn(HOOK, { shell: true, cwd: PROJECT, stdio: ["pipe", "pipe", "ignore"] });
    } catch {
      return resolve(null);
    }
    const timer = setTimeout(() => child.kill("SIGKILL"), 10000);
    child.stdout.on("data", (d) => {
      if (out.length < 65536) out += d;
    });
    child.on("error", () => resolve(null));
    child.on("close", () => {
      clearTimeout(timer);
      try {
        const line = out.trim().split("\\n").pop();
        resolve(line ? JSON.parse(line) : null);
      } catch {
        resolve(null);
      }
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify({ cwd: PROJECT, ...payload }));
  });
}

export default {
  id: ${JSON.stringify(OPENCLAW_PLUGIN_ID)},
  name: "aop-continuity",
  register(api) {
    const contexts = new Map();
    const started = new Set();
    const sid = (event, ctx) => (event && event.sessionId) || (ctx && ctx.sessionId) || undefined;
    // OpenClaw does not wait for its void hooks (after_tool_call among them): two tool calls' hooks would
    // race, and the timeline would hold them in the order their processes finished. A session's hooks run
    // one at a time, in the order its events came (hook never rejects); other sessions do not wait.
    const queues = new Map();
    const send = (name, sessionId, extra = {}) => {
      if (!sessionId) return Promise.resolve(null);
      const queued = (queues.get(sessionId) || Promise.resolve(null)).then(() => hook({ hook_event_name: name, session_id: sessionId, ...extra }));
      queues.set(sessionId, queued);
      // The last one out leaves no queue behind.
      queued.then(() => {
        if (queues.get(sessionId) === queued) queues.delete(sessionId);
      });
      return queued;
    };
    // Once per session in this process: from session_start, or from the first prompt of a session whose
    // start this process did not see (\`openclaw agent --local\` fires no session_start).
    const start = async (id, extra) => {
      if (!id || started.has(id)) return;
      started.add(id);
      const out = await send("session_start", id, extra);
      if (out && typeof out.context === "string") contexts.set(id, out.context);
    };
    api.on("session_start", async (event, ctx) => {
      await start(sid(event, ctx), { resumed_from: event.resumedFrom });
    });
    api.on("before_prompt_build", async (event, ctx) => {
      const id = sid(event, ctx);
      await start(id, { first_prompt: true });
      await send("before_prompt_build", id, { prompt: typeof event.prompt === "string" ? event.prompt : undefined });
      const context = id ? contexts.get(id) : undefined;
      return context ? { prependSystemContext: context } : undefined;
    });
    api.on("after_tool_call", async (event, ctx) => {
      await send("after_tool_call", sid(event, ctx), {
        tool_name: event.toolName,
        call_id: event.toolCallId || (ctx && ctx.toolCallId),
        tool_input: event.params,
        duration_ms: event.durationMs,
        error: typeof event.error === "string" ? event.error.slice(0, 200) : undefined,
      });
    });
    api.on("before_compaction", async (event, ctx) => {
      await send("before_compaction", sid(event, ctx), { transcript_path: event.sessionFile });
    });
    api.on("subagent_spawned", async (event, ctx) => {
      await send("subagent_spawned", sid(event, ctx), { child_session_key: event.childSessionKey, agent_type: event.agentId });
    });
    api.on("subagent_ended", async (event, ctx) => {
      await send("subagent_ended", sid(event, ctx), { child_session_key: event.targetSessionKey });
    });
    api.on("before_agent_finalize", async (event, ctx) => {
      const out = await send("before_agent_finalize", sid(event, ctx), { transcript_path: event.transcriptPath, stop_hook_active: event.stopHookActive === true });
      if (!out || typeof out.reminder !== "string") return undefined;
      if (out.mode === "block") return { action: "revise", reason: out.reminder, retry: { instruction: out.reminder, maxAttempts: 1 } };
      if (api.logger && api.logger.warn) api.logger.warn(out.reminder);
      return undefined;
    });
    api.on("session_end", async (event, ctx) => {
      const id = sid(event, ctx);
      await send("session_end", id, { reason: event.reason, transcript_path: event.sessionFile });
      if (id) {
        contexts.delete(id);
        started.delete(id);
      }
    });
  },
};
`;
}
