// What the CONT_* checks read from a workspace, each read once per doctor run (memoised in the context):
// CURRENT_STATE.md, the newest session archive, the active tasks and the newest session transcript.
import { idProblem } from "../../core/ids.js";
import type { DoctorContext } from "../doctor/index.js";
import { isDirectory, mtimeMs, readDirEntries } from "../../store/fs-probe.js";
import { describeRefusal, readTextBounded, refusalCode, type BoundedText } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { extractObjective } from "./objective.js";
import { readStateDocument, type StateDocument } from "./state-document.js";
import { changeIdWords, documentTitle, uncheckedItems } from "./task-matching.js";
import { newest, newestTranscriptIn, transcriptSources, type Transcript } from "./transcripts.js";

/** CURRENT_STATE.md is meant to be short; a bigger file is read only this far. */
export const MAX_STATE_BYTES = READ_LIMITS.memoryState;
/** Planning files (tasks.md, openspec documents, archives) are read this far. */
const MAX_PLANNING_BYTES = READ_LIMITS.planning;

export const STATE_FILE_REF = "memory/CURRENT_STATE.md";

export interface CurrentState {
  file: BoundedText;
  /** Present when the file was read as text. */
  doc?: StateDocument;
}

export function currentState(ctx: DoctorContext): CurrentState {
  return ctx.memo(`continuity.state:${ctx.layout.root}`, () => {
    const file = readTextBounded(ctx.layout.currentStateFile, MAX_STATE_BYTES);
    if (file.status !== "ok" || file.binary) return { file };
    return { file, doc: readStateDocument(file.text) };
  });
}

/** The parsed document when the state file exists and is text; undefined otherwise (CONT_001/003 report why). */
export function stateDocument(ctx: DoctorContext): StateDocument | undefined {
  return currentState(ctx).doc;
}

export interface ArchiveObjective {
  /** The archive's file name. */
  name: string;
  objective: string | undefined;
}

// Archive names start with the date and time they were taken: YYYY-MM-DD_HH-MM.md.
const DATED_ARCHIVE = /^\d{4}-\d{2}-\d{2}/;

/**
 * The newest `memory/session_archive/*.md` and its objective, or undefined when there is none. Newest
 * is the greatest dated file name (copies and checkouts reset modification times; names keep them);
 * when no name is dated, the newest modification time.
 */
export function newestArchive(ctx: DoctorContext): ArchiveObjective | undefined {
  return ctx.memo(`continuity.archive:${ctx.layout.root}`, () => {
    const names = listNames(ctx.layout.sessionArchiveDir).filter((n) => n.endsWith(".md") && isSafeName(n));
    if (names.length === 0) return undefined;
    const dated = names.filter((n) => DATED_ARCHIVE.test(n)).sort();
    const name = dated.length > 0 ? dated[dated.length - 1]! : newestByMtime(ctx, names);
    const read = readTextBounded(ctx.layout.sessionArchiveFile(name), MAX_STATE_BYTES);
    const objective = read.status === "ok" && !read.binary ? extractObjective(readStateDocument(read.text)) : undefined;
    return { name, objective };
  });
}

function newestByMtime(ctx: DoctorContext, names: string[]): string {
  let best = names[0]!;
  let bestTime = -Infinity;
  for (const name of names) {
    const time = mtimeMs(ctx.layout.sessionArchiveFile(name)) ?? -Infinity;
    if (time > bestTime || (time === bestTime && name > best)) [best, bestTime] = [name, time];
  }
  return best;
}

interface ActiveTask {
  text: string;
  /** Where it was found: `tasks.md` or `openspec/changes/<id>`. */
  source: string;
}

export interface ActiveTasks {
  /** Which planning sources exist: `tasks.md`, `openspec/`. */
  sources: string[];
  tasks: ActiveTask[];
  /** Planning files that exist but were not read (a FIFO, a link out of the workspace…), and why. */
  unreadable: { file: string; reason: string }[];
}

/**
 * Active tasks: the unchecked `- [ ]` items of `tasks.md`, and for every change folder under
 * `openspec/changes/` except `archive/`: its id as words, the titles of its `proposal.md` and
 * `tasks.md`, and the unchecked items of its `tasks.md`. Undefined when neither source exists.
 */
export function activeTasks(ctx: DoctorContext): ActiveTasks | undefined {
  return ctx.memo(`continuity.tasks:${ctx.layout.root}`, () => {
    const { layout } = ctx;
    const sources: string[] = [];
    const tasks: ActiveTask[] = [];
    const unreadable: ActiveTasks["unreadable"] = [];
    const noteUnreadable = (file: string, read: BoundedText) => {
      if (read.status !== "ok" && read.status !== "missing") unreadable.push({ file: layout.relative(file), reason: `${describeRefusal(read)} [${refusalCode(read)}]` });
    };
    const tasksMd = readTextBounded(layout.tasksFile, MAX_PLANNING_BYTES);
    noteUnreadable(layout.tasksFile, tasksMd);
    if (tasksMd.status !== "missing") sources.push("tasks.md");
    if (tasksMd.status === "ok" && !tasksMd.binary) for (const text of uncheckedItems(tasksMd.text)) tasks.push({ text, source: "tasks.md" });
    if (isDirectory(layout.openspecDir)) {
      sources.push("openspec/");
      for (const id of listDirNames(layout.openspecChangesDir)) {
        if (id === "archive" || !isSafeName(id)) continue;
        const source = `openspec/changes/${id}`;
        tasks.push({ text: changeIdWords(id), source });
        for (const file of ["proposal.md", "tasks.md"] as const) {
          const read = readTextBounded(layout.openspecChangeFile(id, file), MAX_PLANNING_BYTES);
          noteUnreadable(layout.openspecChangeFile(id, file), read);
          if (read.status !== "ok" || read.binary) continue;
          const title = documentTitle(read.text);
          if (title) tasks.push({ text: title, source });
          if (file === "tasks.md") for (const text of uncheckedItems(read.text)) tasks.push({ text, source });
        }
      }
    }
    return sources.length === 0 ? undefined : { sources, tasks, unreadable };
  });
}

/** The newest session transcript for this workspace (see transcripts.ts), or undefined when none is found. */
export function newestTranscript(ctx: DoctorContext): Transcript | undefined {
  const sources = transcriptSources({ transcriptsDir: ctx.transcriptsDir, workspaceRoot: ctx.layout.root, home: { env: ctx.env, homeDir: ctx.homeDir } });
  // Keyed by folder, not workspace: one scan of OpenClaw's sessions serves every workspace of a run.
  return newest(sources.map((source) => ctx.memo(`continuity.transcripts:${source.kind}:${source.dir}`, () => newestTranscriptIn(source))));
}

/** Folder entries become path segments only when they are plain names (no spaces, no leading dot). */
function isSafeName(name: string): boolean {
  return idProblem(name) === null;
}

function listNames(dir: string): string[] {
  return readDirEntries(dir)
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

function listDirNames(dir: string): string[] {
  return readDirEntries(dir)
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}
