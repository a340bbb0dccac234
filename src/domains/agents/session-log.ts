// At a Codex Stop or a Gemini CLI AfterAgent / SessionEnd: the calls the session log says were refused
// (blocked-calls.ts) and that the session's run does not hold yet, recorded once each as `tool_denied`
// before the stop's marker (docs/agents.md "Refused calls under Codex and Gemini CLI"). The log is the
// agent's side of the machine, so it is read like any untrusted file: a regular file only (never a FIFO
// or device, opened without blocking), its last MAX_LOG_SCAN_BYTES at most, lines over the JSONL line
// bound and unparseable lines skipped and counted in hooks.log; only lines holding the clients' own
// refusal texts are parsed.
import fs from "node:fs";
import path from "node:path";
import { readLinesSync } from "../../store/jsonl.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { describeRefusal, openRegularFile, readBytesBounded } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { isoUtc } from "../../core/clock.js";
import { listDirIfPresent } from "../../store/fs-probe.js";
import { CODEX_NEEDLES, GEMINI_NEEDLES, codexBlockedCalls, codexBlockedIds, geminiBlockedCalls, type BlockedCall, type LogLines } from "./blocked-calls.js";
import { entryForToolCall, type HookClient, type HookEvent } from "./hook-model.js";
import type { EntryWithoutSequence } from "../replay/index.js";

/** How much of a session log one stop reads: its end, where the turn that just stopped was written. */
export const MAX_LOG_SCAN_BYTES = 32 * 1024 * 1024;

/** The log's lines holding any of `needles` (bytes compared before any line is decoded), or why the log was not read. */
export function scanLog(file: string, needles: readonly string[], maxBytes = MAX_LOG_SCAN_BYTES): (LogLines & { from: number }) | { problem: string } {
  const opened = openRegularFile(file);
  if (opened.status !== "ok") return { problem: `the session log ${file} ${describeRefusal(opened)}` };
  const size = opened.stat.size;
  fs.closeSync(opened.fd);
  const from = Math.max(0, size - maxBytes);
  const wanted = needles.map((n) => Buffer.from(n, "utf8"));
  const out: LogLines & { from: number } = { lines: [], skipped: { overlong: 0, torn: 0, unparseable: 0 }, from };
  let first = true;
  try {
    // From the byte before the window: the first line read then ends where the window's first whole line begins.
    for (const line of readLinesSync(file, { fromOffset: from > 0 ? from - 1 : 0, endOffset: size, raw: true })) {
      const partial = first && from > 0;
      first = false;
      if (partial) continue;
      if (line.overlong) out.skipped.overlong += 1;
      else if (!line.complete) out.skipped.torn += 1;
      else if (line.bytes && wanted.some((n) => within(line.bytes!, n, line.from!, line.to!))) out.lines.push(line.bytes.toString("utf8", line.from, line.to));
    }
  } catch (err) {
    return { problem: `the session log ${file} cannot be read: ${err instanceof Error ? err.message : String(err)}` };
  }
  return out;
}

/** Whether bytes[from, to) hold `needle` (searched in that line only: a search to the chunk's end would read it once per line). */
function within(bytes: Buffer, needle: Buffer, from: number, to: number): boolean {
  return bytes.subarray(from, to).includes(needle);
}

/** The refused calls the client's log names, with what could not be read of it. */
export function blockedCallsIn(client: "codex" | "gemini", file: string): { calls: BlockedCall[]; skipped: LogLines["skipped"]; from: number } | { problem: string } {
  if (client === "gemini") {
    const scan = scanLog(file, GEMINI_NEEDLES);
    return "problem" in scan ? scan : { calls: geminiBlockedCalls(scan.lines, scan.skipped), skipped: scan.skipped, from: scan.from };
  }
  const scan = scanLog(file, CODEX_NEEDLES);
  if ("problem" in scan) return scan;
  const ids = codexBlockedIds(scan.lines, scan.skipped);
  if (ids.size === 0) return { calls: [], skipped: scan.skipped, from: scan.from };
  // Second pass, only when a call was refused: the items that made those calls (their names and inputs).
  const items = scanLog(file, [...ids.keys()].map((id) => `"call_id":${JSON.stringify(id)}`));
  if ("problem" in items) return items;
  return { calls: codexBlockedCalls(ids, items.lines, scan.skipped), skipped: scan.skipped, from: scan.from };
}

/** Which of `ids` the run already holds as a call's operation_id: in its timeline, or spooled for it. */
export function recordedCallIds(layout: WorkspaceLayout, runId: string, ids: readonly string[]): Set<string> {
  const found = new Set<string>();
  const needles = ids.map((id) => ({ id, bytes: Buffer.from(`"operation_id":${JSON.stringify(id)}`, "utf8") }));
  const look = (bytes: Buffer, from: number, to: number) => {
    for (const n of needles) if (!found.has(n.id) && within(bytes, n.bytes, from, to)) found.add(n.id);
  };
  try {
    for (const line of readLinesSync(layout.timelineFile(runId), { raw: true })) if (line.bytes) look(line.bytes, line.from!, line.to!);
  } catch {
    // no timeline yet: nothing recorded
  }
  // Spooled entries (written pretty, one a file, at most READ_LIMITS.spoolEntry) wait for the next writer.
  const spool = layout.timelineSpoolDir(runId);
  for (const name of listDirIfPresent(spool)) {
    const read = readBytesBounded(path.join(spool, name), READ_LIMITS.spoolEntry);
    if (read.status !== "ok") continue; // drained meanwhile: its entry is in the timeline, read above
    try {
      const id = (JSON.parse(read.bytes.toString("utf8")) as { operation_id?: unknown }).operation_id;
      if (typeof id === "string" && ids.includes(id)) found.add(id);
    } catch {
      // a torn spool file is the spool's to report (DRIFT_006)
    }
  }
  return found;
}

/** The entry for a refused call: `tool_denied`, at the time the log gives, its call id and who refused it in the sidecar. */
export function entryForBlockedCall(client: HookClient, stop: HookEvent, call: BlockedCall, runId: string, nowMs: number): EntryWithoutSequence {
  const event: HookEvent = { ...stop, kind: "tool_denied", tool: { name: call.name, call_id: call.call_id, aop_mcp: false, ...(call.input !== undefined ? { input: call.input } : {}) } };
  const entry = entryForToolCall(client, event, runId, nowMs);
  return { ...entry, ...(call.ts ? { ts: isoUtc(Date.parse(call.ts)) } : {}), ext: { ...entry.ext, tool_use_id: call.call_id, blocked_by: call.blocked_by, found_in: client === "codex" ? "rollout" : "transcript" } };
}
