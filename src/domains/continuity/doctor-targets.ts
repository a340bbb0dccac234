// Which workspaces one `continuity doctor` call checks: the --workspace arguments, the OpenClaw
// workspaces with --all-agents, else the current workspace root.
import path from "node:path";
import type { Finding } from "../doctor/index.js";
import { isDirectory } from "../../store/fs-probe.js";
import { configProblemFinding, WORKSPACE_MISSING_ID, type DoctorTarget, type SkippedWorkspace } from "./doctor-runner.js";
import { expandUserPath, type HomeEnv } from "./home-paths.js";
import { readOpenClawWorkspaces } from "./openclaw-config.js";

export interface TargetRequest {
  workspaces: readonly string[];
  allAgents: boolean;
  transcriptsDir?: string | undefined;
  /** The workspace root (--root, AOP_ROOT, nearest marker): checked when nothing else is named. */
  defaultRoot: string;
  cwd: string;
  home: HomeEnv;
}

export interface TargetPlan {
  targets: DoctorTarget[];
  problems: Finding[];
  skipped: SkippedWorkspace[];
}

export async function planTargets(request: TargetRequest): Promise<TargetPlan> {
  const plan: TargetPlan = { targets: [], problems: [], skipped: [] };
  const add = (target: DoctorTarget) => {
    const existing = plan.targets.find((t) => t.root === target.root);
    if (!existing) plan.targets.push(target);
    else if (existing.agentId == null && target.agentId != null) existing.agentId = target.agentId;
  };
  const withTranscripts = (own?: string) => request.transcriptsDir ?? own;

  for (const arg of request.workspaces) {
    add({ root: path.resolve(request.cwd, expandUserPath(arg, request.home)), transcriptsDir: withTranscripts(), origin: "--workspace" });
  }
  if (request.allAgents) await addOpenClawTargets(request, plan, add, withTranscripts);
  if (request.workspaces.length === 0 && !request.allAgents) add({ root: path.resolve(request.defaultRoot), transcriptsDir: withTranscripts() });
  return plan;
}

async function addOpenClawTargets(request: TargetRequest, plan: TargetPlan, add: (t: DoctorTarget) => void, withTranscripts: (own?: string) => string | undefined): Promise<void> {
  const openclaw = await readOpenClawWorkspaces(request.home);
  if (openclaw.problems.length > 0) plan.problems.push(configProblemFinding(openclaw.configFile, openclaw.problems));
  let found = 0;
  for (const ws of openclaw.workspaces) {
    if (ws.configured || isDirectory(ws.path)) {
      found++;
      add({ root: ws.path, agentId: ws.agentId, transcriptsDir: withTranscripts(ws.sessionsDir), origin: ws.origin });
    } else {
      plan.skipped.push({ workspace: ws.path, agent_id: ws.agentId, reason: `not created yet (${ws.origin})` });
    }
  }
  if (found === 0 && plan.problems.length === 0) {
    const why = openclaw.configFound ? `${openclaw.configFile} names no workspace that exists` : `no ${openclaw.configFile} and no ${path.join(openclaw.stateDir, "workspace")}`;
    plan.problems.push({
      id: WORKSPACE_MISSING_ID,
      severity: "critical",
      message: `no OpenClaw workspace found: ${why}`,
      remediation: "Point OPENCLAW_STATE_DIR at the OpenClaw state folder (default ~/.openclaw), or name the workspaces with --workspace.",
      refs: [openclaw.configFile],
    });
  }
}

