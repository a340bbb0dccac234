// What `aop hook claude` may print, per event, in the shapes Claude Code's validator accepts
// (docs/agents.md): never more than MAX_HOOK_OUTPUT_CHARS characters, JSON kept valid when cut. Pure.

export const MAX_HOOK_OUTPUT_CHARS = 10_000;

/** Events whose JSON output may carry `hookSpecificOutput.additionalContext`. */
export type ContextEvent = "SessionStart" | "UserPromptSubmit" | "PostToolUse" | "PostToolUseFailure" | "SubagentStart";

/** The longest prefix of `text` whose rendering fits the cap (the cut is marked with …). */
function fitted(text: string, render: (t: string) => string): string {
  const whole = render(text);
  if (whole.length <= MAX_HOOK_OUTPUT_CHARS) return whole;
  // A rendering is never shorter than its text, so the prefix is at most the cap; escapes make it
  // longer by an amount that depends on the text: search for the longest prefix that fits.
  let lo = 0;
  let hi = Math.min(text.length, MAX_HOOK_OUTPUT_CHARS);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (render(cut(text, mid)).length <= MAX_HOOK_OUTPUT_CHARS) lo = mid;
    else hi = mid - 1;
  }
  return render(cut(text, lo));
}

/** The first `n` UTF-16 units of `text`, not splitting a surrogate pair, marked as cut. */
function cut(text: string, n: number): string {
  const end = n > 0 && /[\uD800-\uDBFF]/.test(text[n - 1] ?? "") ? n - 1 : n;
  return text.slice(0, end) + "…";
}

export function contextOutput(event: ContextEvent, text: string): string {
  return fittedJson(text, (t) => ({ hookSpecificOutput: { hookEventName: event, additionalContext: t } }));
}

/** One JSON line carrying `text` where `shape` puts it, cut to fit the cap. */
export function fittedJson(text: string, shape: (t: string) => unknown): string {
  return fitted(text, (t) => JSON.stringify(shape(t)) + "\n");
}

/** Shown to the user (Stop, in `message` mode). */
export function systemMessageOutput(text: string): string {
  return fitted(text, (t) => JSON.stringify({ systemMessage: t }) + "\n");
}

/** Keeps the turn going: the reason is given to the model (Stop, in `block` mode). */
export function blockOutput(reason: string): string {
  return fitted(reason, (t) => JSON.stringify({ decision: "block", reason: t }) + "\n");
}

/** Plain text (PreCompact: Claude Code adds it to the compaction instructions). Never starts with `{`. */
export function plainOutput(text: string): string {
  const safe = text.trimStart().startsWith("{") ? `Note: ${text.trimStart()}` : text;
  return fitted(safe, (t) => (t.endsWith("\n") ? t : t + "\n"));
}
