// The hook's own log (.aop/runtime/hooks.log): problems go here, never to the agent's stdout.
import { isoUtc } from "../../core/clock.js";
import { appendJsonLine } from "../../store/jsonl.js";
import type { WorkspaceLayout } from "../../store/layout.js";

export function logHook(layout: WorkspaceLayout, level: "info" | "warning" | "error", event: string, message: string): void {
  try {
    appendJsonLine(layout.hooksLog, { ts: isoUtc(Date.now()), level, event, message: message.slice(0, 2000) });
  } catch {
    // Not even the log is writable: stay silent, the agent must not be disturbed.
  }
}
