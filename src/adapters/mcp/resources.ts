// MCP resources of `aop mcp` (docs/kernel.md): the orientation, CURRENT_STATE.md, each checkpoint, the
// doctor's last report and run timelines — read-only views over the domains' services, so any MCP
// client starts from what Claude Code gets at SessionStart. A missing one is "Resource not found".
// The domains load on the first request, not at start-up (clients wait for the handshake).
import fs from "node:fs";
import { AopError } from "../../core/errors.js";
import { describeRefusal, readTextBounded, refusalCode } from "../../store/read-text-bounded.js";
import type { ReadResourceResult, Server } from "./server-sdk.js";
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, UriTemplate } from "./server-sdk.js";
import type { McpServices } from "./services.js";

export const ORIENTATION_URI = "aop://orientation";
const STATE_URI = "aop://state/current";
const DOCTOR_URI = "aop://doctor/last-report";
const CHECKPOINT = new UriTemplate("aop://checkpoints/{skill}");
const REPLAY = new UriTemplate("aop://replay/{run_id}");
const MAX_REPORT_BYTES = 4 * 1024 * 1024;
/** memory/CURRENT_STATE.md is read with the continuity doctor's bound. */
const stateBytes = async () => (await import("../../domains/continuity/index.js")).MAX_STATE_BYTES;
/** A replay resource holds the newest entries of the run; older ones are paged with replay_timeline_get. */
const REPLAY_RESOURCE_ENTRIES = 500;
const LISTED_RUNS = 20;

const TEMPLATES = [
  { uriTemplate: "aop://checkpoints/{skill}", name: "checkpoint", title: "Skill checkpoint", description: "A skill's checkpoint (Checkpoint Protocol JSON), without its private skill_state.", mimeType: "application/json" },
  { uriTemplate: "aop://replay/{run_id}", name: "replay", title: "Run timeline", description: `The newest ${REPLAY_RESOURCE_ENTRIES} timeline entries of a run (claude-<session> for a Claude Code session); page further with replay_timeline_get.`, mimeType: "application/json" },
];

function isFile(file: string): boolean {
  return fs.lstatSync(file, { throwIfNoEntry: false })?.isFile() === true;
}

async function listResources(services: McpServices) {
  const { layout, clock } = services;
  const resources = [{ uri: ORIENTATION_URI, name: "orientation", title: "Orientation", description: "Where the work stands: decisions waiting on the user, critical findings, CURRENT_STATE.md, each open checkpoint's next action (what Claude Code gets at SessionStart).", mimeType: "text/markdown" }];
  if (isFile(layout.currentStateFile)) resources.push({ uri: STATE_URI, name: "current-state", title: "memory/CURRENT_STATE.md", description: "The session state file of the memory-continuity protocol.", mimeType: "text/markdown" });
  if (isFile(layout.doctorLastReport)) resources.push({ uri: DOCTOR_URI, name: "doctor-last-report", title: "Last doctor report", description: "The report the last `aop doctor` (doctor_run) wrote.", mimeType: "application/json" });
  const { scanFolder } = await import("../../domains/checkpoints/index.js");
  const { listRuns } = await import("../../domains/replay/index.js");
  const scan = await scanFolder({ layout, clock });
  for (const f of scan.files) {
    const status = f.checkpoint ? `${f.checkpoint.status}, ${f.checkpoint.phase}/${f.checkpoint.step}` : "invalid";
    resources.push({ uri: CHECKPOINT.expand({ skill: f.skill }), name: `checkpoint-${f.skill}`, title: `Checkpoint: ${f.skill}`, description: `${f.file} (${status})`, mimeType: "application/json" });
  }
  // A run whose timeline cannot be read has nothing to serve.
  for (const run of (await listRuns(layout)).filter((r) => r.problem === null).slice(0, LISTED_RUNS)) {
    resources.push({ uri: REPLAY.expand({ run_id: run.run_id }), name: `replay-${run.run_id}`, title: `Timeline: ${run.run_id}`, description: `${run.entries} entries, last at ${run.last_entry_at ?? "?"}`, mimeType: "application/json" });
  }
  return { resources };
}

function json(uri: string, value: unknown): ReadResourceResult {
  return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(value, null, 2) }] };
}

function text(uri: string, mimeType: string, body: string): ReadResourceResult {
  return { contents: [{ uri, mimeType, text: body }] };
}

/** A workspace file as a resource: bounded, text only, regular files only. */
function fileResource(uri: string, file: string, maxBytes: number, mimeType: string): ReadResourceResult {
  const read = readTextBounded(file, maxBytes);
  if (read.status === "missing" || read.status === "not_a_file") throw new ResourceNotFoundError(uri);
  if (read.status !== "ok") throw new ProtocolError(ProtocolErrorCode.InternalError, `${uri}: the file ${describeRefusal(read)} [${refusalCode(read)}]`);
  if (read.binary) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri}: the file is not text`);
  return text(uri, mimeType, read.truncated ? `${read.text}\n\n[aop: cut at ${maxBytes} of ${read.size} bytes]\n` : read.text);
}

/** aop's own errors for a resource: what does not exist is "not found", a bad id is invalid params. */
function asProtocolError(uri: string, err: unknown): Error {
  if (!(err instanceof AopError)) return err instanceof Error ? err : new Error(String(err));
  if (err.code.endsWith("_not_found")) return new ResourceNotFoundError(uri);
  return new ProtocolError(err.code === "internal_error" ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidParams, `${uri}: ${err.message}`, { code: err.code });
}

async function readResource(services: McpServices, uri: string): Promise<ReadResourceResult> {
  const { layout, clock, env } = services;
  if (uri === ORIENTATION_URI) {
    const { buildOrientation } = await (await import("../../domains/agents/index.js")).loadClientContext();
    return text(uri, "text/markdown", (await buildOrientation(layout, clock, env, await services.doctorFamilies())).text);
  }
  if (uri === STATE_URI) return fileResource(uri, layout.currentStateFile, await stateBytes(), "text/markdown");
  if (uri === DOCTOR_URI) return fileResource(uri, layout.doctorLastReport, MAX_REPORT_BYTES, "application/json");
  const checkpoint = CHECKPOINT.match(uri);
  if (checkpoint) {
    try {
      const { readSkill, checkpointView } = await import("../../domains/checkpoints/index.js");
      const entry = await readSkill({ layout, clock }, String(checkpoint.skill));
      const document = checkpointView(entry, null).checkpoint;
      if (document === null) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri}: ${entry.file} is not readable JSON (${entry.errors[0]?.message ?? "unreadable"})`);
      return json(uri, document);
    } catch (err) {
      throw asProtocolError(uri, err);
    }
  }
  const replay = REPLAY.match(uri);
  if (replay) {
    try {
      const { queryTimeline } = await import("../../domains/replay/index.js");
      const runId = String(replay.run_id);
      const head = await queryTimeline(layout, { run_id: runId, limit: 0 });
      const from = Math.max(0, head.total_matched - REPLAY_RESOURCE_ENTRIES);
      const page = await queryTimeline(layout, { run_id: runId, from_sequence: from, limit: REPLAY_RESOURCE_ENTRIES });
      return json(uri, { run_id: runId, total_entries: head.total_matched, from_sequence: from, entries: page.entries, skipped_lines: page.skipped_lines });
    } catch (err) {
      throw asProtocolError(uri, err);
    }
  }
  throw new ResourceNotFoundError(uri);
}

export function registerResources(server: Server, services: McpServices): void {
  server.setRequestHandler("resources/list", async () => listResources(services));
  server.setRequestHandler("resources/templates/list", async () => ({ resourceTemplates: TEMPLATES }));
  server.setRequestHandler("resources/read", async (request) => readResource(services, request.params.uri));
}
