// DRIFT_010: what interrupted writes and older versions left behind — temp files of atomic writes whose
// writer is gone, drained spool folders, feature folders without state. Harmless, but never cleaned up
// by anything else; reported so a person can remove them.
import path from "node:path";
import type { DoctorCheck, DoctorContext, FindingDraft } from "../check-types.js";
import { atomicTempWriterPid, isAtomicTempName } from "../../../store/atomic-write.js";
import { mtimeMs, readDirEntries } from "../../../store/fs-probe.js";
import { processIsAlive } from "../../../store/lock-holder.js";

// A temp file this young whose writer still runs is a write in progress, not a leftover.
const IN_PROGRESS_MS = 60_000;
// The scan is bounded: a workspace with millions of files costs a bounded time.
const MAX_ENTRIES = 100_000;
const MAX_DEPTH = 6;

function tempWriterRuns(name: string): boolean {
  const pid = atomicTempWriterPid(name);
  return pid !== null && processIsAlive(pid);
}

/** The folders aop writes to (links are not followed: a folder listing never reports them as folders). */
function writtenFolders(ctx: DoctorContext): string[] {
  const { layout } = ctx;
  return [layout.aopDir, layout.checkpointsDir, layout.orchestratorDir, path.join(layout.root, ".claude"), path.join(layout.root, ".codex"), path.join(layout.root, ".cursor")];
}

export const check: DoctorCheck = {
  id: "DRIFT_010_LEFTOVER_FILES",
  severity: "info",
  title: "no leftovers of interrupted writes",
  remediation: "delete the files named (nothing reads them); they are what a write killed mid-way or an older aop left behind",
  run(ctx) {
    const now = ctx.clock.now();
    const temps: string[] = [];
    const emptySpools: string[] = [];
    const stateless: string[] = [];
    let seen = 0;
    const queue = writtenFolders(ctx).map((dir) => ({ dir, depth: 0 }));
    while (queue.length > 0 && seen < MAX_ENTRIES) {
      const { dir, depth } = queue.shift()!;
      const entries = readDirEntries(dir);
      seen += entries.length;
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name.endsWith(".spool") && dir === ctx.layout.replayDir && readDirEntries(full).length === 0) emptySpools.push(ctx.layout.relative(full));
          else if (dir === ctx.layout.featuresDir && readDirEntries(full).length === 0) stateless.push(ctx.layout.relative(full));
          else if (depth < MAX_DEPTH) queue.push({ dir: full, depth: depth + 1 });
        } else if (entry.isFile() && isAtomicTempName(entry.name)) {
          const age = now - (mtimeMs(full) ?? 0);
          if (!(age < IN_PROGRESS_MS && tempWriterRuns(entry.name))) temps.push(ctx.layout.relative(full));
        }
      }
    }
    const findings: FindingDraft[] = [];
    const list = (refs: string[]) => refs.slice(0, 10).join(", ") + (refs.length > 10 ? ` and ${refs.length - 10} more` : "");
    if (temps.length > 0) findings.push({ message: `${temps.length} temp file(s) of interrupted writes: ${list(temps.sort())}`, refs: temps.slice(0, 50) });
    if (emptySpools.length > 0) findings.push({ message: `${emptySpools.length} empty spool folder(s): ${list(emptySpools.sort())}`, refs: emptySpools.slice(0, 50) });
    if (stateless.length > 0) {
      findings.push({ message: `${stateless.length} empty feature folder(s) (no state.md): ${list(stateless.sort())}`, remediation: "delete the empty folders; `aop feature init` creates a feature", refs: stateless.slice(0, 50) });
    }
    return { findings, okMessage: "no leftovers of interrupted writes" };
  },
};
