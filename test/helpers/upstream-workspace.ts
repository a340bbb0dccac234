// A workspace written by the upstream orchestrator itself (the npm package agentic-orchestrator, pinned
// as a devDependency): its CLI initialises the repository and runs a feature with its stub worker, then
// its own library classes hold a run lease, map sessions (one to a feature that is not active), make
// tool calls through its ToolRuntime with its replay timeline, and optionally release the lease.
// Offline and headless; needs git.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "./tmp.js";
import { waitFor } from "./wait.js";

const require = createRequire(import.meta.url);
export const UPSTREAM_PACKAGE_DIR = path.dirname(require.resolve("agentic-orchestrator/package.json"));
const DIST = path.join(UPSTREAM_PACKAGE_DIR, "dist", "apps", "control-plane");
const UPSTREAM_BIN = path.join(DIST, "cli", "aop.js");

export interface UpstreamWorkspace {
  root: string;
  /** The orchestrator's instance id: the folder of its lease under .aop/runtime/. */
  instanceId: string;
  runId: string;
  /** Workspace-relative path of the lease file. */
  leaseRef: string;
  /** Releases the lease the way the orchestrator does at the end of a run. */
  release(): Promise<void>;
  /** The upstream CLI, run in the workspace. */
  upstreamCli(...args: string[]): string;
}

const GIT_ENV = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.invalid" };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the upstream package ships no types for its deep modules
type Any = any;

async function upstream(relative: string): Promise<Any> {
  return import(pathToFileURL(path.join(DIST, relative)).href);
}

export async function makeUpstreamWorkspace(): Promise<UpstreamWorkspace> {
  const root = fs.realpathSync(tempDir("aop-upstream-"));
  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...GIT_ENV }, timeout: 120_000 });
  const upstreamCli = (...args: string[]) => run(process.execPath, [UPSTREAM_BIN, ...args]);

  run("git", ["init", "-q", "-b", "main", "."]);
  fs.mkdirSync(path.join(root, "specs"));
  fs.writeFileSync(path.join(root, "specs", "hello.md"), '# Feature: Hello\n\n## Summary\nAdd a hello() function returning "hello".\n\n## Acceptance criteria\n- hello() returns "hello".\n');
  run("git", ["add", "-A"]);
  run("git", ["commit", "-qm", "init"]);
  upstreamCli("init", "--auto");
  // Its default policy refuses the stub worker provider that an offline run needs.
  fs.appendFileSync(path.join(root, "config", "agentic", "orchestrator", "policy.yaml"), "execution:\n  require_live_provider_for_run: false\n");
  upstreamCli("run", "-fi", "specs/hello.md", "--agent-provider", "custom", "--worker-provider-mode", "stub", "--transport", "inprocess");

  // Its CLI (0.2.19) writes no replay timeline, so a ToolRuntime with its replay service makes the calls.
  const { AopKernel } = await upstream("index.js");
  const { createToolingRuntime } = await upstream("mcp/runtime-factory.js");
  const { ToolRuntime } = await upstream("mcp/tool-runtime.js");
  const { ReplayTimelineService } = await upstream("application/services/replay-timeline-service.js");
  const { AopPathLayout } = await upstream("core/path-layout.js");
  const { computeInstanceId, defaultConfigPath } = await upstream("application/services/instance-isolation-service.js");
  const instanceId: string = computeInstanceId(defaultConfigPath(root));
  const kernel: Any = new AopKernel(root, instanceId);
  await kernel.ensureLoaded();
  const tooling: Any = await createToolingRuntime(root, kernel, { generateToolsMarkdown: false });
  const runtime: Any = new ToolRuntime({
    registry: tooling.registry, loader: tooling.loader, validator: tooling.validator, authorizer: tooling.authorizer, ledger: tooling.ledger, executor: tooling.executor,
    replayTimeline: new ReplayTimelineService(new AopPathLayout(root)), policy: kernel.getPolicySnapshot(),
  });
  const runId = `run:${randomUUID()}`;
  await kernel.acquireRunLease({ run_id: runId, owner_instance_id: instanceId, provider: "custom", model: "local-default", provider_config_ref_hash: "" });
  const orchestratorSession = `orchestrator-global-${randomUUID()}`;
  await kernel.updateOrchestratorSession({ run_id: runId, owner_instance_id: instanceId, orchestrator_session_id: orchestratorSession });
  for (const featureId of ["hello", "ghost_feature"]) {
    await kernel.updateFeatureSessionAssignment({
      run_id: runId, owner_instance_id: instanceId, feature_id: featureId,
      planner_session_id: `planner-${featureId}-${randomUUID()}`, builder_session_id: `builder-${featureId}-${randomUUID()}`, qa_session_id: `qa-${featureId}-${randomUUID()}`,
    });
  }
  const claims = (actorType: string, sessionId = orchestratorSession) => {
    const now = new Date();
    return { run_id: runId, session_id: sessionId, actor_type: actorType, actor_id: actorType, issued_at: now.toISOString(), expires_at: new Date(now.getTime() + 900_000).toISOString() };
  };
  const op = `feature_log_append__hello__${randomUUID()}`;
  const calls: [string, Record<string, unknown>, ReturnType<typeof claims>][] = [
    ["feature.state_get", { feature_id: "hello" }, claims("orchestrator")],
    ["feature.log_append", { operation_id: op, feature_id: "hello", note: "first" }, claims("orchestrator")],
    ["feature.log_append", { operation_id: op, feature_id: "hello", note: "first" }, claims("orchestrator")],
    ["feature.log_append", { operation_id: op, feature_id: "hello", note: "other" }, claims("orchestrator")],
    ["feature.log_append", { feature_id: "hello", note: "no operation id" }, claims("orchestrator")],
    ["feature.log_append", { operation_id: `x${op}`, feature_id: "hello", note: "p" }, claims("planner", "planner-s")],
    ["no.such_tool", {}, claims("orchestrator")],
    ["report.dashboard", {}, claims("system", "system")],
  ];
  for (const [name, args, c] of calls) await runtime.callTool(name, args, c);
  // Its appends are fire-and-forget: wait until its meta counts them all.
  const meta = path.join(root, ".aop", "runtime", "replay", `${runId}.meta.json`);
  await waitFor(() => {
    try {
      return (JSON.parse(fs.readFileSync(meta, "utf8")) as { entry_count: number }).entry_count >= calls.length;
    } catch {
      return false; // not written yet
    }
  }, 10_000);
  return {
    root,
    instanceId,
    runId,
    leaseRef: `.aop/runtime/${instanceId}/run-lease.json`,
    release: async () => void (await kernel.releaseRunLease(runId, instanceId)),
    upstreamCli,
  };
}
