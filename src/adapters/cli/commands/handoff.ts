// aop handoff: checks that the checkpoint and memory/CURRENT_STATE.md say where the work stands (the handoff
// prompt's checklist), writes the handoff note .aop/runtime/handoff.json, and publishes the records with it
// (docs/handoff.md, "Handoff").
import type { Command } from "commander";
import { AopError } from "../../../core/errors.js";
import type { ChecklistItem, HandoffNote } from "../../../domains/handoff/index.js";
import type { CliContext } from "../program/context.js";
import { addFlags, type FlagSpec, type FlagValues } from "../flags/flags.js";
import { examples, runCommand, usageError } from "../program/run-command.js";

const HANDOFF_FLAGS = [
  { flag: "to", value: "<remote>", description: "the git remote to publish the records and the note to (default: origin)" },
  { flag: "message", value: "<text>", description: "a word for whoever resumes (kept in the note)" },
  { flag: "skill", value: "<skill>", description: "the checkpoint the note is built from (default: the most urgent open one)" },
  { flag: "force", description: "hand off even when the checklist is not met; the failures are listed in the note" },
] as const satisfies readonly FlagSpec[];

type HandoffOptions = FlagValues<typeof HANDOFF_FLAGS>;

interface Published {
  pushed: boolean;
  remote: string;
  /** What happened, for people. */
  detail: string;
}

export function register(program: Command, summary: string): void {
  addFlags(program.command("handoff").description(summary), HANDOFF_FLAGS)
    .addHelpText(
      "after",
      "\nThe checklist: memory/CURRENT_STATE.md exists with every section and states the objective, the current step and\nthe next action; a checkpoint has a progress summary and queues its next action (or is complete).\nA failing item is an error that says what to fix (exit 1); --force writes the note anyway and lists them in it.\n" +
        examples("aop handoff", 'aop handoff --to origin --message "the API tests still fail on CI only"', "aop handoff --skill architect --json", "aop handoff --force"),
    )
    .action(runCommand(handoff));
}

async function handoff(ctx: CliContext, opts: HandoffOptions): Promise<number> {
  if (opts.message === "") throw usageError("--message must not be empty (leave it out for no message)");
  const remote = opts.to ?? "origin";
  if (!/^(?!\.)[A-Za-z0-9._@+-]{1,100}$/.test(remote)) throw usageError(`--to must name a git remote (got '${remote.slice(0, 80)}')`);
  const { buildHandoffNote, gatherHandoffSources, handoffChecklist, parseHandoffNote, MAX_HANDOFF_BYTES } = await import("../../../domains/handoff/index.js");
  const sources = await gatherHandoffSources(ctx.layout, ctx.clock, opts.skill);
  const checklist = handoffChecklist(sources);
  const failures = checklist.filter((i) => !i.ok);
  if (failures.length > 0 && opts.force !== true) {
    if (!ctx.json) ctx.err(renderChecklist(ctx, checklist));
    throw new AopError("handoff_incomplete", `the handoff checklist is not met (${failures.length} item${failures.length === 1 ? "" : "s"}): ${failures[0]!.fix}`, {
      details: { failures: failures.map((f) => ({ item: f.item, fix: f.fix })) },
      hint: "fix the items above and run aop handoff again, or hand off anyway with --force (the note lists them)",
    });
  }
  const { displayNameOf, ensureWorkspaceIdentity } = await import("../../../store/workspace-identity.js");
  const { identity } = await ensureWorkspaceIdentity(ctx.layout, ctx.clock, { warn: (m) => ctx.err(ctx.errStyle.yellow(`warning: ${m}`)) });
  const note = await buildHandoffNote(
    ctx.layout,
    sources,
    { workspace_id: identity.workspace_id, display_name: displayNameOf(identity), created_at: new Date(ctx.clock.now()).toISOString() },
    opts.message ?? null,
    failures.map((f) => `${f.item}: ${f.fix}`),
  );
  // The note is checked as every reader checks it, so a note this build writes is one it can read.
  const text = JSON.stringify(note, null, 2) + "\n";
  const checked = parseHandoffNote(text);
  if ("problem" in checked) throw new AopError("internal_error", `the handoff note does not match its schema: ${checked.problem}`);
  if (Buffer.byteLength(text) > MAX_HANDOFF_BYTES) throw new AopError("payload_too_large", `the handoff note is over ${MAX_HANDOFF_BYTES} bytes`, { hint: "shorten --message, CURRENT_STATE.md's objective and next action, or the open decisions" });
  const { writeFileAtomic } = await import("../../../store/atomic-write.js");
  writeFileAtomic(ctx.layout.handoffFile, text);
  const published = await publishHandoff(ctx, remote);
  if (ctx.json) {
    ctx.printJson({ note_path: ctx.layout.relative(ctx.layout.handoffFile), note, checklist, published });
    return 0;
  }
  ctx.out(renderChecklist(ctx, checklist));
  ctx.out(renderWritten(ctx, note, published));
  return 0;
}

/**
 * The one place the handoff leaves this machine: the records and the note go to `remote` with the sync
 * domain's pushRecords (`aop sync push`, docs/sync.md). Without a repository or that remote the note stays
 * here for the next session on this machine; a push that fails otherwise is an error, the note written.
 */
async function publishHandoff(ctx: CliContext, remote: string): Promise<Published> {
  const { pushRecords } = await import("../../../domains/sync/index.js");
  try {
    const result = await pushRecords(ctx.layout, ctx.clock, { remote, note: (m) => ctx.err(m) });
    const detail = result.status === "pushed" ? `commit ${result.commit.slice(0, 12)} on ${result.ref}` : `${result.remote} already held these records (${result.ref})`;
    return { pushed: true, remote: result.remote, detail };
  } catch (err) {
    if (!(err instanceof AopError)) throw err;
    // No repository or no such remote: a handoff to the next session on this machine still stands.
    if (err.code === "sync_not_a_git_repository" || err.code === "sync_unknown_remote") return { pushed: false, remote, detail: `not pushed: ${err.message}` };
    const written = ctx.layout.relative(ctx.layout.handoffFile);
    throw new AopError(err.code, `the handoff note is written (${written}) but was not published: ${err.message}`, {
      ...(err.details ? { details: err.details } : {}),
      hint: `${err.hint ? `${err.hint}; then ` : ""}run aop handoff again, or aop sync push${remote === "origin" ? "" : ` ${remote}`}`,
    });
  }
}

function renderChecklist(ctx: CliContext, items: ChecklistItem[]): string {
  const s = ctx.style;
  const lines = ["handoff checklist"];
  for (const i of items) lines.push(i.ok ? `  ${s.green("✓")} ${i.item}` : `  ${s.red("✗")} ${i.item}\n      fix: ${i.fix}`);
  return lines.join("\n");
}

function renderWritten(ctx: CliContext, note: HandoffNote, published: Published): string {
  const s = ctx.style;
  const lines = [
    "",
    `handoff note  ${ctx.layout.relative(ctx.layout.handoffFile)}  (workspace ${note.workspace_id})`,
    `  objective    ${note.objective || "(not stated)"}`,
    `  next action  ${note.next_action || "(not stated)"}`,
  ];
  if (note.message) lines.push(`  message      ${note.message}`);
  if (note.checkpoint) lines.push(`  checkpoint   ${note.checkpoint.skill}`);
  if (note.open_decisions.length > 0) lines.push(`  decisions    ${note.open_decisions.length} waiting on the user`);
  if (note.last_run) lines.push(`  last run     ${note.last_run.run_id} up to sequence ${note.last_run.last_sequence}${note.last_run.last_result ? ` (${note.last_run.last_result})` : ""}`);
  for (const [feature, h] of Object.entries(note.evidence_heads)) lines.push(`  evidence     ${feature}: ${h.length} entr${h.length === 1 ? "y" : "ies"}, head ${h.head.slice(0, 19)}…`);
  if (note.checklist_failures.length > 0) lines.push(s.yellow(`  handed off with ${note.checklist_failures.length} checklist item(s) unmet (--force)`));
  lines.push(published.pushed ? `${s.green("published")}    to ${published.remote}: ${published.detail}` : s.yellow(`published    ${published.detail}`));
  return lines.join("\n");
}
