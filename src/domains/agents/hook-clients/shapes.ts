// What each client accepts on a hook's stdout for the two things aop says (docs/agents.md): the
// orientation at session start and the stop reminder. Pure; every shape is cut to MAX_HOOK_OUTPUT_CHARS.
import { blockOutput, contextOutput, fittedJson, systemMessageOutput } from "../hook-output.js";

interface StopReminderText {
  /** `message`: shown to the user; `block`: the turn continues with the text for the agent. */
  mode: "message" | "block";
  text: string;
}

export interface ClientShapes {
  /** The orientation, in the shape the client adds to the model's context ("" where it cannot). */
  sessionStart(text: string): string;
  /** The stop reminder ("" where the client has no way to show it). */
  stop(reminder: StopReminderText): string;
}

/** Claude Code's shapes, which Codex shares (its hook schemas are Claude Code's). */
export const claudeShapes: ClientShapes = {
  sessionStart: (text) => contextOutput("SessionStart", text),
  stop: (r) => (r.mode === "block" ? blockOutput(r.text) : systemMessageOutput(r.text)),
};

/** Gemini CLI: SessionStart's additionalContext; AfterAgent retries the turn on `decision: "deny"`. */
export const geminiShapes: ClientShapes = {
  sessionStart: (text) => contextOutput("SessionStart", text),
  stop: (r) => (r.mode === "block" ? fittedJson(r.text, (t) => ({ decision: "deny", reason: t })) : systemMessageOutput(r.text)),
};

/** Cursor: sessionStart's `additional_context`; stop's `followup_message` is sent as the user's next message. */
export const cursorShapes: ClientShapes = {
  sessionStart: (text) => fittedJson(text, (t) => ({ additional_context: t })),
  // Cursor's stop output has no message for the user alone: only `block` says anything.
  stop: (r) => (r.mode === "block" ? fittedJson(r.text, (t) => ({ followup_message: t })) : ""),
};

/** opencode: aop's plugin reads `{context}` at session start and `{reminder}` at idle (docs/agents.md). */
export const opencodeShapes: ClientShapes = {
  sessionStart: (text) => fittedJson(text, (t) => ({ context: t })),
  stop: (r) => fittedJson(r.text, (t) => ({ reminder: t, mode: r.mode })),
};

/** OpenClaw: aop's plugin returns `{context}` from before_prompt_build as prependSystemContext, and turns
 * `{reminder}` at before_agent_finalize into a revision (block) or a Gateway log warning (message). */
export const openclawShapes: ClientShapes = {
  sessionStart: (text) => fittedJson(text, (t) => ({ context: t })),
  stop: (r) => fittedJson(r.text, (t) => ({ reminder: t, mode: r.mode })),
};
