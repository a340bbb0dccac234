// One entry in full: every field of its timeline line, where its bar sits, for a mutating call the
// envelope the idempotency ledger recorded (what a replay returns), and for a gate run whether the
// evidence file it wrote still matches its chain entry.
import { evidenceMark } from "../health.js";
import type { Lane } from "../lanes.js";
import type { ChainView, LedgerView, StateTrackView } from "../report-types.js";
import { stateAfterStep } from "../state-replay.js";
import { entryTimestamp, type ReportEntry } from "../timeline-codec.js";
import { barStart } from "../waterfall.js";
import { append, badge, el, fill, type Child } from "./dom.js";

export interface DetailInput {
  runId: string;
  entry: ReportEntry;
  lane: Lane | undefined;
  link: string;
  ledger: LedgerView | undefined;
  /** Ask the server for an envelope the file does not hold (served pages only). */
  fetchLedger: ((operationId: string) => void) | null;
  /** The chain of the feature whose evidence the envelope names, when the report holds it. */
  evidenceChain: ChainView | null;
  integrityEnabled: boolean;
  /** The run's state track (docs/report.md, "State at a step"), when the report holds one. */
  stateTrack: StateTrackView | undefined;
}

function value(v: unknown): Child {
  if (v === null || v === undefined) return el("span", { class: "null" }, "null");
  if (typeof v === "string") return v;
  return JSON.stringify(v);
}

function fields(rows: [string, unknown][]): HTMLTableElement {
  return el("table", { class: "fields" }, el("tbody", null, ...rows.map(([k, v]) => el("tr", { data: { field: k } }, el("th", null, k), el("td", null, value(v))))));
}

function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

function ledgerSection(input: DetailInput): HTMLElement {
  const e = input.entry;
  const section = el("section", { class: "ledger" }, el("h3", null, "Ledger envelope"));
  if (!e.mutating || e.operation_id === null || e.idempotency_status === "none") {
    const why = !e.mutating
      ? "read-only call: the ledger records only mutating calls"
      : e.operation_id === null
        ? "no operation id: nothing recorded"
        : "not an aop kernel call (an agent's own tool, recorded by a hook): the ledger has no record of it";
    section.append(el("p", { class: "muted" }, why));
    return section;
  }
  const l = input.ledger;
  if (!l) {
    section.append(el("p", { class: "muted" }, "not in this file: see the notes at the foot of the page"));
    if (input.fetchLedger) {
      const button = el("button", { class: "small" }, "fetch from the server");
      button.addEventListener("click", () => input.fetchLedger!(e.operation_id!));
      section.append(button);
    }
    return section;
  }
  if (l.status === "missing") section.append(el("p", { class: "warn" }, `no ledger record for operation ${l.operation_id}`));
  else if (l.status === "unreadable") section.append(el("p", { class: "warn" }, `ledger record unreadable: ${l.reason ?? ""}`));
  else {
    const sameHash = l.request_hash === e.request_hash;
    append(
      section,
      fields([["operation_id", l.operation_id], ["tool_name", l.tool_name], ["run_id", l.run_id], ["recorded_at", l.recorded_at], ["request_hash", l.request_hash]]),
      sameHash ? null : el("p", { class: "warn" }, "the recorded request hash differs from this call's (a mismatch or a reused id)"),
      el("pre", { class: "envelope" }, pretty(l.envelope_json ?? "")),
      l.truncated ? el("p", { class: "muted" }, "envelope cut at the embedding bound") : null,
    );
  }
  return section;
}

function stateValue(v: unknown): Child {
  if (v !== null && typeof v === "object" && typeof (v as { unknown?: unknown }).unknown === "string") return el("span", { class: "warn", attrs: { title: (v as { unknown: string }).unknown } }, `unknown: ${(v as { unknown: string }).unknown}`);
  return value(v);
}

/** What the step changed and the state just after it, rebuilt from the record (as `aop state --at N` does). */
function stateSection(input: DetailInput): HTMLElement {
  const section = el("section", { class: "state" }, el("h3", null, "State after this step"));
  const track = input.stateTrack;
  const state = track ? stateAfterStep(track, input.entry.sequence) : null;
  if (!track || !state) {
    section.append(el("p", { class: "muted" }, track?.note ?? `not in this file: aop state --run-id ${input.runId} --at ${input.entry.sequence}`));
    return section;
  }
  const changes = state.step?.changes ?? [];
  append(
    section,
    el("p", null, state.step ? state.step.effect : "changed nothing"),
    changes.length === 0
      ? null
      : el("table", { class: "fields changes" }, el("tbody", null, ...changes.map(([path, before, after]) => el("tr", null, el("th", null, path), el("td", null, stateValue(before), " → ", stateValue(after)))))),
    el("table", { class: "fields" }, el("tbody", null, ...state.leaves.map(([path, v]) => el("tr", { data: { field: path } }, el("th", null, path), el("td", null, stateValue(v)))))),
    track.note ? el("p", { class: "muted" }, track.note) : null,
  );
  return section;
}

/** The evidence file a gates.run envelope names, marked: an edited file is said to be one, never read as the verdict. */
function evidenceSection(input: DetailInput): HTMLElement | null {
  const named = input.ledger?.evidence;
  if (!named) return null;
  const mark = evidenceMark(named.trust, input.evidenceChain, input.integrityEnabled);
  return el(
    "section",
    { class: "evidence", data: { trust: named.trust.status } },
    el("h3", null, "Evidence file"),
    el("p", null, badge(mark.label, mark.tone, mark.why ?? undefined), el("span", { class: "mono" }, named.path)),
    mark.why && mark.tone !== "ok" ? el("p", { class: mark.tone === "info" ? "muted" : mark.tone }, mark.why) : null,
  );
}

export function renderDetail(target: HTMLElement, input: DetailInput | null): void {
  if (!input) {
    fill(target, el("p", { class: "muted" }, "Select a call (click a row or a bar, or press j / k)."));
    return;
  }
  const e = input.entry;
  const ts = entryTimestamp(e);
  const contract: [string, unknown][] = [
    ["ts", ts], ["sequence", e.sequence], ["run_id", e.run_id], ["session_id", e.session_id], ["actor_type", e.actor_type], ["feature_id", e.feature_id],
    ["tool_name", e.tool_name], ["mutating", e.mutating], ["operation_id", e.operation_id], ["idempotency_status", e.idempotency_status],
    ["request_hash", e.request_hash], ["result", e.result], ["error_code", e.error_code], ["latency_ms", e.latency_ms],
  ];
  if (e.agent_id !== null || e.agent_type !== null) contract.push(["agent_id", e.agent_id], ["agent_type", e.agent_type]);
  for (const [k, v] of Object.entries(e.extra ?? {})) contract.push([k, v]);
  const start = Number.isFinite(e.ts_ms) ? new Date(barStart(e)).toISOString() : "–";
  const head = el(
    "div",
    { class: "detail-head" },
    el("h2", null, e.tool_name),
    e.result === "error" ? badge(`ERROR ${e.error_code ?? ""}`.trim(), "err") : badge("ok", "ok"),
    e.idempotency_status === "replay" ? badge("REPLAY", "replay") : e.idempotency_status === "mismatch" ? badge("MISMATCH", "mismatch") : null,
    e.mutating ? badge("mutating", "mut") : null,
  );
  const link = el("input", { class: "link", attrs: { readonly: "", "aria-label": "deep link" } });
  link.value = input.link;
  link.addEventListener("focus", () => link.select());
  fill(
    target,
    head,
    el("p", { class: "muted" }, `sequence ${e.sequence} · lane ${input.lane?.label ?? "–"} · started ${start}`),
    // Above the fields: whether the file a gate run wrote can still be believed is read first.
    evidenceSection(input),
    el("h3", null, "Timeline entry"),
    fields(contract),
    ledgerSection(input),
    stateSection(input),
    el("h3", null, "Link to this call"),
    link,
  );
}
