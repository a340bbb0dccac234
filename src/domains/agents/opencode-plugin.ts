// The opencode plugin `aop integrate opencode` writes (.opencode/plugin/aop.js). opencode runs plugins
// inside itself and has no hook commands, so the plugin hands each event aop acts on to
// `aop hook <opencode>` as one JSON object (hook-clients/opencode.ts reads it) and uses what it prints:
// `{context}` joins the system prompt, `{reminder}` is shown as a toast (or, mode block, sent to the
// session once). A tool call is reported once, when its part ends (completed or error), by call id, with
// its command's exit status where the tool's metadata has one (opencode's bash: `metadata.exit`).
// Pure: the source is a string.

export function opencodePluginSource(hookCommand: string): string {
  return `// Written by \`aop integrate opencode\` (aop-continuity); \`aop integrate opencode --remove\` removes it.
import { spawnSync } from "node:child_process";

const HOOK = ${JSON.stringify(hookCommand)};

function hook(payload, cwd) {
  try {
    const r = spawnSync(HOOK, { shell: true, cwd, input: JSON.stringify(payload), encoding: "utf8", timeout: 10000 });
    const line = (r.stdout || "").trim().split("\\n").pop();
    return line ? JSON.parse(line) : null;
  } catch {
    return null;
  }
}

export const AopPlugin = async ({ directory, client }) => {
  const contexts = new Map();
  const reported = new Set();
  const send = (name, sessionId, extra = {}) => hook({ hook_event_name: name, session_id: sessionId, cwd: directory, ...extra }, directory);
  return {
    event: async ({ event }) => {
      const p = event.properties || {};
      if (event.type === "session.created" && p.info && !p.info.parentID) {
        const out = send("session.created", p.info.id);
        if (out && typeof out.context === "string") contexts.set(p.info.id, out.context);
      } else if (event.type === "session.compacted" && p.sessionID) send("session.compacted", p.sessionID);
      else if (event.type === "session.deleted" && p.info) send("session.deleted", p.info.id);
      else if (event.type === "session.idle" && p.sessionID) {
        const out = send("session.idle", p.sessionID);
        if (out && typeof out.reminder === "string") {
          try {
            if (out.mode === "block") await client.session.prompt({ path: { id: p.sessionID }, body: { parts: [{ type: "text", text: out.reminder }] } });
            else await client.tui.showToast({ body: { message: out.reminder, variant: "warning" } });
          } catch {}
        }
      } else if (event.type === "message.part.updated" && p.part && p.part.type === "tool") {
        const part = p.part;
        const status = part.state && part.state.status;
        if ((status !== "completed" && status !== "error") || reported.has(part.callID)) return;
        reported.add(part.callID);
        const time = part.state.time || {};
        const error = status === "error" ? String(part.state.error || "") : undefined;
        const exit = part.state.metadata && part.state.metadata.exit;
        send(status === "completed" ? "tool.completed" : "tool.error", part.sessionID, {
          tool_name: part.tool,
          call_id: part.callID,
          tool_input: part.state.input,
          duration_ms: typeof time.end === "number" && typeof time.start === "number" ? time.end - time.start : undefined,
          denied: error !== undefined && /rejected permission|permission.*denied/i.test(error),
          exit_status: Number.isSafeInteger(exit) ? exit : undefined,
        });
      }
    },
    "chat.message": async (input, output) => {
      const text = (output.parts || []).filter((x) => x.type === "text").map((x) => x.text).join("\\n");
      if (input.sessionID) send("chat.message", input.sessionID, { prompt: text });
    },
    "experimental.chat.system.transform": async (input, output) => {
      const context = input.sessionID ? contexts.get(input.sessionID) : undefined;
      if (context && Array.isArray(output.system)) output.system.push(context);
    },
  };
};
`;
}
