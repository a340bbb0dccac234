// reset: moves a checkpoint into .checkpoints/history/<skill>.<stamp>.checkpoint.json (never deletes).
import fs from "node:fs";
import { ensureDir, moveFile } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { fileStamp } from "../../core/instant.js";

/** Move a checkpoint into history/ (never deletes); returns the new path. */
export function moveToHistory(layout: WorkspaceLayout, skill: string, epochMs: number): string {
  const source = layout.checkpointFile(skill);
  ensureDir(layout.checkpointHistoryDir);
  const stamp = fileStamp(epochMs);
  let target = layout.checkpointHistoryFile(skill, stamp);
  for (let n = 1; fs.existsSync(target); n++) target = layout.checkpointHistoryFile(skill, `${stamp}-${n}`);
  moveFile(source, target);
  return target;
}
