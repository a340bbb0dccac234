// Human output of `aop sync`. Display names and reasons come from other machines: ctx.out escapes them.
import type { PruneResult, PullResult, PushResult, SyncStatus } from "../../../domains/sync/index.js";
import { formatBytes as kib } from "./diff-format.js";
import type { Style } from "./style.js";

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

export function renderPush(r: PushResult, style: Style): string {
  const entries = r.runs.reduce((n, x) => n + x.entries, 0);
  const lines = [
    `${style.green("pushed")} ${r.ref} to ${r.remote} as ${r.display_name}: commit ${r.commit.slice(0, 12)}${r.parent ? ` (after ${r.parent.slice(0, 12)})` : " (first push)"}`,
    `  ${plural(r.runs.length, "run")}, ${plural(entries, "entry", "entries")}, ${plural(r.files, "file")}; sent ${r.sent_bytes === null ? "?" : kib(r.sent_bytes)} (${kib(r.new_bytes)} of new objects before compression)${r.attempts > 1 ? `, after ${r.attempts} attempts` : ""}`,
  ];
  for (const s of r.skipped) lines.push(`  ${style.yellow("skipped")} ${s.path}: ${s.reason}`);
  return lines.join("\n");
}

export function renderPull(r: PullResult, style: Style): string {
  if (r.origins.length === 0) return `no other workspace has pushed records to ${r.remote} yet`;
  return r.origins
    .map((o) => {
      const who = `${o.display_name ?? "?"} (${o.workspace_id.slice(0, 8)})`;
      if (o.status === "refused") return `${style.red("refused")} ${who}: ${o.reason} — commit ${o.commit.slice(0, 12)}, nothing of it was written`;
      if (o.status === "unchanged") return `${style.dim("unchanged")} ${who}: already at ${o.commit.slice(0, 12)} in ${o.folder}`;
      return `${style.green("pulled")} ${who}: ${plural(o.runs, "run")}, ${plural(o.files, "file")} at ${o.commit.slice(0, 12)} into ${o.folder}`;
    })
    .join("\n");
}

export function renderStatus(s: SyncStatus, style: Style): string {
  const lines = [`workspace ${s.workspace_id} → ${s.remote} ${s.ref}`];
  lines.push(s.pushed_commit === null ? "  never pushed to this remote" : `  last push: commit ${s.pushed_commit.slice(0, 12)} at ${s.pushed_at}`);
  if (s.remote_checked && s.remote_commit !== s.pushed_commit) lines.push(`  ${style.yellow("the remote's ref is at")} ${s.remote_commit?.slice(0, 12) ?? "(none)"}`);
  if (!s.remote_configured) lines.push(`  ${style.yellow("this repository has no remote")}: every record here is local only (add one: git remote add ${s.remote} URL, then aop sync push)`);
  else if (!s.remote_checked) lines.push(`  ${style.dim("remote not asked (--offline or unreachable): compared with the last push and pull")}`);
  lines.push("runs:");
  if (s.runs.length === 0) lines.push("  (none)");
  for (const r of s.runs) {
    const local = r.local_entries - r.pushed_entries;
    const state = r.local_entries === 0 ? style.dim("pushed, pruned here") : local > 0 ? style.yellow(`${local} local only`) : style.green("all pushed");
    lines.push(`  ${r.run_id}: ${r.local_entries} here, ${r.pushed_entries} pushed — ${state}`);
  }
  lines.push("origins:");
  if (s.origins.length === 0) lines.push("  (none pulled)");
  for (const o of s.origins) {
    const name = `${o.display_name ?? "(not pulled)"} ${o.workspace_id.slice(0, 8)}`;
    const when = o.pulled_at ? `pulled ${o.pulled_at} at ${o.pulled_commit!.slice(0, 12)}` : "not pulled yet";
    const behind = o.behind === null ? style.yellow("behind by an unknown count (run aop sync pull)") : o.behind === 0 ? style.green("up to date") : style.yellow(`${plural(o.behind, "commit")} behind`);
    lines.push(`  ${name}: ${when}; ${behind}`);
  }
  return lines.join("\n");
}

export function renderPrune(r: PruneResult, style: Style): string {
  const verb = r.dry_run ? "would drop" : "dropped";
  const lines = r.pruned.map((p) => `${style.green(verb)} ${p.run_id}: ${plural(p.entries, "entry", "entries")}, all held by ${p.remote}`);
  for (const k of r.kept) lines.push(`${style.dim("kept")} ${k.run_id}: ${k.reason}`);
  if (lines.length === 0) lines.push("no timelines here");
  return lines.join("\n");
}
