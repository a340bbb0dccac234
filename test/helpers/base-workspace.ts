// A workspace with one of everything aop reads and writes, built through the CLI: a feature with a
// chained gate run and its step log, a timeline, tools.md, CURRENT_STATE.md, tasks.md and a checkpoint.
import fs from "node:fs";
import path from "node:path";
import { runCli } from "./cli.js";
import { INTEGRITY_POLICY_YAML } from "./gates.js";
import { tempWorkspace, writeFile } from "./tmp.js";
import { minimalCheckpoint } from "../domains/checkpoints/fixture.js";

export const BASE_RUN = "run-base";

export interface BaseWorkspace {
  root: string;
  /** Workspace-relative paths of the gate evidence file and its step log. */
  gateFile: string;
  stepLog: string;
}

export function buildBaseWorkspace(options: { lease?: boolean } = {}): BaseWorkspace {
  const root = tempWorkspace();
  const aop = (...args: string[]) => {
    const r = runCli(["--root", root, "--run-id", BASE_RUN, ...args]);
    if (r.code !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
  };
  aop("init");
  writeFile(root, "agentic/orchestrator/policy.yaml", INTEGRITY_POLICY_YAML);
  aop("feature", "init", "feat_a");
  aop("gates", "run", "--feature-id", "feat_a", "--mode", "fast");
  if (options.lease) aop("run", "start");
  aop("tools", "--write-docs");
  writeFile(root, "memory/CURRENT_STATE.md", "# Objective\nShip the login page\n");
  writeFile(root, "tasks.md", "- [ ] Ship the login page\n");
  writeFile(root, ".checkpoints/builder.checkpoint.json", JSON.stringify(minimalCheckpoint("builder")));
  const evidence = path.join(root, ".aop/features/feat_a/evidence");
  const logs = path.join(root, ".aop/features/feat_a/logs");
  return {
    root,
    gateFile: path.relative(root, path.join(evidence, fs.readdirSync(evidence).find((n) => n.startsWith("gate-fast-"))!)),
    stepLog: path.relative(root, path.join(logs, fs.readdirSync(logs)[0]!)),
  };
}
