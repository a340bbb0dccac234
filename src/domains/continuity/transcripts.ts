// Finds the newest agent session transcript that concerns a workspace (by file modification time).
// Sources: `--transcripts DIR`; else OpenClaw (`<state>/agents/*/sessions/*.jsonl`) and Claude Code
// (`<config>/projects/<workspace path as a folder name>/*.jsonl`).
import path from "node:path";
import { mtimeMs, readDirEntries } from "../../store/fs-probe.js";
import { claudeConfigDir, claudeProjectDirNames, openclawStateDir, type HomeEnv } from "./home-paths.js";

type TranscriptSourceKind = "transcripts-dir" | "openclaw" | "claude-code";

export interface TranscriptSource {
  kind: TranscriptSourceKind;
  dir: string;
}

export interface Transcript {
  file: string;
  mtimeMs: number;
  kind: TranscriptSourceKind;
}

// A `--transcripts` folder is searched this deep (DIR/agents/<id>/sessions/x.jsonl is depth 3) …
const MAX_DEPTH = 4;
// … and no further than this many entries, so pointing it at `/` costs a bounded time.
const MAX_ENTRIES = 50_000;

/** Session transcripts are `*.jsonl`; OpenClaw's `sessions.json` index and `*.reset.*` / `*.deleted.*` copies are not. */
export function isTranscriptFile(name: string): boolean {
  return name.endsWith(".jsonl") && !name.includes(".reset.") && !name.includes(".deleted.");
}

export function transcriptSources(options: { transcriptsDir?: string | undefined; workspaceRoot: string; home: HomeEnv }): TranscriptSource[] {
  if (options.transcriptsDir) return [{ kind: "transcripts-dir", dir: path.resolve(options.transcriptsDir) }];
  const projects = path.join(claudeConfigDir(options.home), "projects");
  return [
    { kind: "openclaw", dir: path.join(openclawStateDir(options.home), "agents") },
    ...claudeProjectDirNames(options.workspaceRoot).map((name) => ({ kind: "claude-code" as const, dir: path.join(projects, name) })),
  ];
}

/** The newest transcript in one source, or undefined when it has none (or does not exist). */
export function newestTranscriptIn(source: TranscriptSource): Transcript | undefined {
  switch (source.kind) {
    case "openclaw":
      return newest(listDirs(source.dir).map((agentDir) => newestDirect(path.join(agentDir, "sessions"), source.kind)));
    case "claude-code":
      return newestDirect(source.dir, source.kind);
    case "transcripts-dir":
      return newestRecursive(source.dir, source.kind);
  }
}

export function newest(candidates: readonly (Transcript | undefined)[]): Transcript | undefined {
  let best: Transcript | undefined;
  for (const c of candidates) if (c && (!best || c.mtimeMs > best.mtimeMs)) best = c;
  return best;
}

function newestDirect(dir: string, kind: TranscriptSourceKind): Transcript | undefined {
  let best: Transcript | undefined;
  for (const entry of readDirEntries(dir)) {
    if (!(entry.isFile() || entry.isSymbolicLink()) || !isTranscriptFile(entry.name)) continue;
    best = newest([best, statTranscript(path.join(dir, entry.name), kind)]);
  }
  return best;
}

function newestRecursive(root: string, kind: TranscriptSourceKind): Transcript | undefined {
  let best: Transcript | undefined;
  let seen = 0;
  const queue: { dir: string; depth: number }[] = [{ dir: root, depth: 0 }];
  while (queue.length > 0 && seen < MAX_ENTRIES) {
    const { dir, depth } = queue.shift()!;
    for (const entry of readDirEntries(dir)) {
      if (++seen > MAX_ENTRIES) break;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH) queue.push({ dir: full, depth: depth + 1 });
      else if ((entry.isFile() || entry.isSymbolicLink()) && isTranscriptFile(entry.name)) best = newest([best, statTranscript(full, kind)]);
    }
  }
  return best;
}

function statTranscript(file: string, kind: TranscriptSourceKind): Transcript | undefined {
  const time = mtimeMs(file);
  return time === undefined ? undefined : { file, mtimeMs: time, kind }; // gone since the listing: not a transcript any more
}

function listDirs(dir: string): string[] {
  return readDirEntries(dir)
    .filter((e) => e.isDirectory())
    .map((e) => path.join(dir, e.name));
}
