// The table views: runs, per-tool figures, features with their chains and gates, checkpoints, and the
// doctor's last findings.
import { doctorHealth, evidenceMark, gateMark, type Mark } from "../health.js";
import type { CheckpointsView, DoctorView, FeaturesView, FeatureView, GateView } from "../report-types.js";
import { encodedRunStats, toolStats } from "../stats.js";
import { formatDuration } from "../waterfall.js";
import type { AppContext } from "./app-context.js";
import { append, badge, el, table, type Child } from "./dom.js";
import { count, latency, percent, shortInstant } from "./format.js";

/** The runs, under the search box across them (kept by the controller across renders). */
export function runsView(app: AppContext, searchBox: HTMLElement): HTMLElement {
  const rows = app.store.order.map((id) => {
    const run = app.store.runs.get(id)!;
    const v = run.view;
    const s = run.encoded ? encodedRunStats(run.encoded) : null;
    const open = el("a", { attrs: { href: app.linkTo({ view: "timeline", run: id }) }, data: { run: id } }, id);
    const span = s && s.first_start_ms !== null ? formatDuration(s.last_end_ms! - s.first_start_ms) : v.started_at && v.last_entry_at ? formatDuration(Date.parse(v.last_entry_at) - Date.parse(v.started_at)) : "–";
    const notes: Child[] = [
      v.note ? el("span", { class: "note" }, v.note) : null,
      v.dropped_entries ? badge(`${count(v.dropped_entries)} dropped`, "warn") : null,
      v.skipped_lines ? badge(`${count(v.skipped_lines)} unreadable lines`, "warn") : null,
    ];
    return [open, count(v.entries), v.errors ? badge(count(v.errors), "err") : "0", s ? String(s.sessions) : "–", shortInstant(v.started_at), shortInstant(v.last_entry_at), span, el("span", null, ...notes)];
  });
  return el(
    "section",
    { class: "view", id: "view-runs" },
    el("h2", null, `Runs (${app.store.order.length})`),
    searchBox,
    rows.length === 0 ? el("p", { class: "muted" }, "No run has a timeline yet: every tool call is recorded once there is one.") : table(["run", "entries", "errors", "sessions", "first", "last", "span", "notes"], rows, { class: "grid runs", numeric: [1, 2, 3] }),
  );
}

export function toolsView(app: AppContext, runId: string | null, matches: Int32Array | null, filtered: boolean): HTMLElement {
  const run = app.store.get(runId);
  const section = el("section", { class: "view", id: "view-tools" });
  if (!run) {
    section.append(el("p", { class: "muted" }, "No run selected."));
    return section;
  }
  const entries = app.store.entries(run);
  const stats = toolStats(entries, matches ?? undefined);
  const scope = filtered && matches ? `${count(matches.length)} of ${count(entries.length)} entries (filters of the timeline view)` : `${count(entries.length)} entries`;
  section.append(
    el("h2", null, `Tools of ${run.view.run_id}`),
    el("p", { class: "muted" }, scope, " · latency percentiles are nearest-rank"),
    table(
      ["tool", "calls", "errors", "error rate", "replays", "p50", "p95", "max", "total"],
      stats.map((s) => [s.tool_name, count(s.calls), s.errors ? badge(count(s.errors), "err") : "0", percent(s.errors, s.calls), count(s.replays), latency(s.p50_ms), latency(s.p95_ms), latency(s.max_ms), latency(s.total_ms)]),
      { class: "grid tools", numeric: [1, 2, 3, 4, 5, 6, 7, 8] },
    ),
  );
  return section;
}

function chainCell(f: FeatureView, integrity: boolean): Child {
  const c = f.chain;
  if (c.status === "valid") return el("span", { data: { chain: "valid" } }, badge("valid", "ok"), ` ${count(c.entry_count)} entries · head ${(c.head_hash ?? "").slice(0, 19)}…`);
  if (c.status === "invalid") {
    const at = c.first_failure_sequence === null ? "" : ` at sequence ${c.first_failure_sequence}`;
    return el("span", { data: { chain: "invalid" } }, badge(`INVALID${at}`, "err"), ` ${c.failure_code ?? ""}: ${c.failure_reason ?? ""}`, c.artifact ? el("div", { class: "muted" }, c.artifact) : null);
  }
  if (c.status === "unverifiable") return el("span", { data: { chain: "unverifiable" } }, badge("unverifiable", "warn"), ` ${c.failure_reason ?? ""}`);
  return el("span", { class: "muted", data: { chain: "none" } }, integrity ? "no chain yet" : "no chain (integrity off in policy)");
}

/** Why a mark is not green, as a line under it (text, never markup). */
function why(mark: Mark): Child {
  return mark.why && mark.tone !== "ok" ? el("div", { class: `why ${mark.tone === "info" ? "muted" : mark.tone}` }, mark.why) : null;
}

// The result is state.md's, recorded when the gate ran; the evidence file is only marked, never read as the verdict.
function gateCell(g: GateView, f: FeatureView, integrity: boolean): HTMLElement {
  const result = gateMark(g, f.chain, integrity);
  const evidence = g.evidence_trust ? evidenceMark(g.evidence_trust, f.chain, integrity) : null;
  const name = g.evidence.slice(g.evidence.lastIndexOf("/") + 1);
  return el(
    "div",
    { class: "gate", data: { gate: g.mode } },
    badge(result.label, result.tone, result.why ?? undefined),
    ` ${g.mode} · ${shortInstant(g.at)}`,
    why(result),
    evidence
      ? el("div", { class: "evidence", title: g.evidence, data: { trust: g.evidence_trust!.status } }, badge(evidence.label, evidence.tone, evidence.why ?? undefined), el("span", { class: "mono muted" }, name), why(evidence))
      : null,
  );
}

export function featuresView(view: FeaturesView): HTMLElement {
  const rows = view.items.map((f) => [
    el("span", { class: "mono" }, f.feature_id),
    f.title,
    f.status,
    el("span", null, ...(f.gates.length ? f.gates.map((g) => gateCell(g, f, view.integrity_enabled)) : ["–"])),
    chainCell(f, view.integrity_enabled),
    f.problem ? el("span", { class: "warn" }, f.problem) : "",
  ]);
  return el(
    "section",
    { class: "view", id: "view-features" },
    el("h2", null, `Features (${view.items.length})`),
    el("p", { class: "muted" }, `evidence integrity ${view.integrity_enabled ? "enabled" : "disabled"} by policy · chains verified read-only when this report was made`),
    view.problem ? el("p", { class: "warn" }, view.problem) : null,
    rows.length ? table(["feature", "title", "status", "gates", "evidence chain", "problems"], rows, { class: "grid features" }) : el("p", { class: "muted" }, "No features."),
  );
}

export function checkpointsView(view: CheckpointsView): HTMLElement {
  const rows = view.items.map((c) => [
    el("span", { class: "mono" }, c.skill),
    el("span", null, c.status ?? "–", c.stale ? badge("stale", "warn") : null),
    `${c.phase ?? "–"} / ${c.step ?? "–"}`,
    c.progress ? `${c.progress.done}/${c.progress.total}` : "–",
    shortInstant(c.updated_at),
    c.next_action ? el("span", null, c.next_action, c.why ? el("div", { class: "muted" }, c.why) : null) : el("span", { class: "muted" }, "–"),
    c.valid ? (c.warnings ? badge(`${c.warnings} warnings`, "warn") : badge("valid", "ok")) : el("span", null, badge("invalid", "err"), ...c.errors.map((e) => el("div", { class: "muted" }, e))),
  ]);
  return el(
    "section",
    { class: "view", id: "view-checkpoints" },
    el("h2", null, `Checkpoints (${view.items.length})`),
    !view.exists ? el("p", { class: "muted" }, `No checkpoints folder (${view.dir}).`) : rows.length ? table(["skill", "status", "phase / step", "progress", "updated", "next action", "file"], rows, { class: "grid checkpoints" }) : el("p", { class: "muted" }, "The checkpoints folder is empty."),
  );
}

export function doctorView(view: DoctorView): HTMLElement {
  const section = el("section", { class: "view", id: "view-doctor" }, el("h2", null, "Doctor"));
  if (view.status === "absent") {
    section.append(el("p", { class: "muted" }, "No doctor report yet: run `aop doctor` (this report shows the last one, it never runs the doctor)."));
    return section;
  }
  if (view.status === "unreadable") {
    section.append(el("p", { class: "warn" }, view.problem ?? "the last report cannot be read"));
    return section;
  }
  const s = view.summary!;
  // Not the report's `ok` (no critical finding): a report with warnings is amber, never green.
  const health = doctorHealth(view);
  const mark = badge(health.label, health.tone, health.why ?? undefined);
  mark.dataset.testid = "doctor-health";
  append(
    section,
    el("p", null, `last report ${shortInstant(view.generated_at)} · `, mark, ` · ${s.critical} critical · ${s.warning} warning · ${s.info} info`),
    why(health),
    table(
      ["severity", "check", "finding", "remediation"],
      view.findings.map((f) => [badge(f.severity, f.severity === "critical" ? "err" : f.severity === "info" ? "info" : "warn"), el("span", { class: "mono" }, f.id), el("span", null, f.message, ...f.refs.map((r) => el("div", { class: "muted mono" }, r))), f.remediation]),
      { class: "grid doctor" },
    ),
  );
  return section;
}
