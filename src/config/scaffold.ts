// `aop init`: creates what is missing, never overwrites without --force, reports both.
import fs from "node:fs";
import { writeFileAtomic, ensureDir } from "../store/atomic-write.js";
import type { WorkspaceLayout } from "../store/layout.js";
import type { Clock } from "../core/clock.js";
import { nowIso } from "../core/clock.js";
import { AOP_TEMPLATE, GATES_TEMPLATE, POLICY_TEMPLATE } from "./templates.js";

export interface ScaffoldFile {
  path: string;
  contents: () => string;
}

export interface ScaffoldResult {
  root: string;
  created: string[];
  overwritten: string[];
  kept: string[];
}

function scaffoldFiles(layout: WorkspaceLayout, clock: Clock, extra: ScaffoldFile[] = []): ScaffoldFile[] {
  return [
    { path: layout.policyFile, contents: () => POLICY_TEMPLATE },
    // Every key commented: the file only shows where aop's own keys go (docs/compatibility.md).
    { path: layout.aopConfigFile, contents: () => AOP_TEMPLATE },
    { path: layout.gatesFile, contents: () => GATES_TEMPLATE },
    {
      path: layout.featuresIndex,
      contents: () => JSON.stringify({ version: 1, active: [], blocked: [], merged: [], updated_at: nowIso(clock) }, null, 2) + "\n",
    },
    ...extra,
  ];
}

export function scaffoldWorkspace(layout: WorkspaceLayout, clock: Clock, options: { force?: boolean; extra?: ScaffoldFile[] } = {}): ScaffoldResult {
  const result: ScaffoldResult = { root: layout.root, created: [], overwritten: [], kept: [] };
  for (const dir of [layout.featuresDir, layout.runtimeDir, layout.replayDir, layout.ledgerDir]) {
    if (!fs.existsSync(dir)) {
      ensureDir(dir);
      result.created.push(layout.relative(dir) + "/");
    }
  }
  for (const file of scaffoldFiles(layout, clock, options.extra)) {
    const exists = fs.existsSync(file.path);
    // The feature index is state, not configuration: --force never resets it.
    const overwritable = options.force === true && file.path !== layout.featuresIndex;
    if (exists && !overwritable) {
      result.kept.push(layout.relative(file.path));
      continue;
    }
    writeFileAtomic(file.path, file.contents());
    (exists ? result.overwritten : result.created).push(layout.relative(file.path));
  }
  return result;
}
