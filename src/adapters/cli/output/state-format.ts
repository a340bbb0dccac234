// `aop state` for people: the step, what it changed, then the state in tables. An unknown field shows as
// "unknown" in its cell and its reason once below; every value passes through the table's escaping.
import type { StateAtResult, StateChange } from "../../../domains/timetravel/index.js";
import { escapeInline } from "./escape.js";
import type { Style } from "./style.js";
import { renderTable } from "./table.js";

function isUnknown(value: unknown): value is { unknown: string } {
  return value !== null && typeof value === "object" && typeof (value as { unknown?: unknown }).unknown === "string" && Object.keys(value).length === 1;
}

/** Collects the reasons of unknown fields, each printed once. */
class Unknowns {
  readonly reasons = new Map<string, string[]>();
  cell(path: string, value: unknown, show: (v: never) => string = (v) => String(v)): string {
    if (!isUnknown(value)) return value === null ? "–" : show(value as never);
    const paths = this.reasons.get(value.unknown) ?? [];
    paths.push(path);
    this.reasons.set(value.unknown, paths);
    return "unknown";
  }
}

function brief(value: unknown): string {
  if (value === null || value === undefined) return "–";
  if (isUnknown(value)) return `unknown (${value.unknown})`;
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

function changeLines(changes: StateChange[], indent: string): string[] {
  if (changes.length === 0) return [`${indent}(nothing)`];
  return changes.map((c) => `${indent}${escapeInline(c.path)}: ${escapeInline(brief(c.before))} → ${escapeInline(brief(c.after))}`);
}

export function renderState(data: StateAtResult, s: Style): string {
  const out: string[] = [];
  const u = new Unknowns();
  const step = data.step;
  const result = step.result === "ok" ? s.green("ok") : s.red(`ERROR ${step.error_code ?? ""}`.trim());
  out.push(s.bold(`state of ${escapeInline(data.run_id)} after step ${data.sequence}`) + s.dim(` (steps 0–${data.last_sequence})`));
  out.push(`step ${step.sequence}  ${escapeInline(step.ts)}  ${escapeInline(step.tool_name)}${step.feature_id ? `  ${escapeInline(step.feature_id)}` : ""}  ${result}  ${escapeInline(step.idempotency_status)}`);
  out.push(`  ${escapeInline(step.effect)}`);
  out.push("  changed:", ...changeLines(step.changes, "    "));

  const features = Object.entries(data.state.features);
  out.push("", s.bold("FEATURES"));
  if (features.length === 0) out.push("  (none recorded by this run up to here)");
  else out.push(renderTable([{ header: "FEATURE" }, { header: "STATUS" }, { header: "VERSION", align: "right" }, { header: "SINCE", align: "right" }], features.map(([id, f]) => [id, u.cell(`features.${id}.status`, f.status), u.cell(`features.${id}.version`, f.version), String(f.since_sequence)]), { indent: "  " }));

  const lease = data.state.lease;
  out.push("", s.bold("LEASE"));
  if (isUnknown(lease)) out.push(`  ${u.cell("lease", lease)}`);
  else {
    const judged = lease.released ? "released" : lease.expired ? s.yellow("EXPIRED at this step") : "held";
    out.push(`  ${escapeInline(lease.owner)} · run ${escapeInline(lease.run_id)} · instance ${escapeInline(lease.instance_id)} · expires ${escapeInline(lease.lease_expires_at)} · ${judged} (since step ${lease.since_sequence})`);
  }

  out.push("", s.bold("SESSIONS"));
  const sessions = data.state.sessions;
  if (isUnknown(sessions)) out.push(`  ${u.cell("sessions", sessions)}`);
  else if (Object.keys(sessions).length === 0) out.push("  (none)");
  else out.push(renderTable([{ header: "FEATURE" }, { header: "SESSIONS" }], Object.entries(sessions).map(([f, roles]) => [f, Object.entries(roles).map(([role, id]) => `${role}=${id}`).join(" ")]), { indent: "  " }));

  out.push("", s.bold("EVIDENCE"));
  const evidence = Object.entries(data.state.evidence);
  if (evidence.length === 0) out.push("  (no feature of this run up to here)");
  else
    out.push(
      renderTable(
        [{ header: "FEATURE" }, { header: "CHAIN", align: "right" }, { header: "HEAD" }, { header: "FROM" }],
        evidence.map(([f, e]) =>
          isUnknown(e)
            ? [f, u.cell(`evidence.${f}`, e), "", ""]
            : [f, u.cell(`evidence.${f}.chain_length`, e.chain_length), u.cell(`evidence.${f}.head_hash`, e.head_hash, (h: string) => `${h.slice(0, 19)}…`), e.source === "ledger" ? `gate/reset at step ${e.since_sequence}` : "chain.jsonl by then"],
        ),
        { indent: "  " },
      ),
    );

  const cps = data.state.checkpoints;
  out.push("", s.bold("CHECKPOINTS") + s.dim(isUnknown(cps.from_git) ? "" : cps.from_git === null ? " (git: no commit of them by then)" : ` (git ${cps.from_git.slice(0, 12)})`));
  if (isUnknown(cps.from_git)) u.cell("checkpoints (other skills)", cps.from_git);
  const skills = Object.entries(cps.skills);
  if (skills.length === 0) out.push("  (none known)");
  else
    out.push(
      renderTable(
        [{ header: "SKILL" }, { header: "STATUS" }, { header: "STEP" }, { header: "NEXT ACTION" }, { header: "FROM" }],
        skills.map(([k, c]) => (isUnknown(c) ? [k, u.cell(`checkpoints.${k}`, c), "", "", ""] : [k, u.cell(`checkpoints.${k}.status`, c.status), u.cell(`checkpoints.${k}.step`, c.step), u.cell(`checkpoints.${k}.next_action`, c.next_action), c.source.startsWith("git:") ? `git ${c.source.slice(4, 16)}` : c.source])),
        { indent: "  " },
      ),
    );

  if (data.diff) out.push("", s.bold(`CHANGED FROM STEP ${data.diff.from_sequence} TO STEP ${data.diff.to_sequence}`), ...changeLines(data.diff.changes, "  "));
  if (u.reasons.size > 0) {
    out.push("", s.bold("UNKNOWN") + s.dim(" (the record cannot tell)"));
    for (const [reason, paths] of u.reasons) out.push(`  ${escapeInline(paths.join(", "))}: ${escapeInline(reason)}`);
  }
  return out.join("\n");
}
