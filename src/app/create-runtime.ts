// The composition root of the kernel: builds the ToolRuntime the CLI and the MCP server use, with
// the domains' handlers, the active run lease and the workspace's policy and timeline plugged into its ports.
import type { Clock } from "../core/clock.js";
import type { PolicyLoadResult } from "../config/policy-types.js";
import { loadPolicySnapshot } from "../config/policy-snapshot.js";
import type { WorkspaceLayout } from "../store/layout.js";
import { activeLeaseRunId } from "../domains/runs/index.js";
import { createTimelineHook } from "../domains/replay/index.js";
import type { IdentityOverrides } from "../runtime/run-context.js";
import { ToolRuntime, type ToolRuntimeOptions } from "../runtime/tool-runtime.js";
import { loadHandler, loadRecovery } from "./handler-registry.js";

export { resolveActor } from "../runtime/run-context.js";

// The doctor reports an invalid policy, so it must run when every other tool refuses to.
const RUNS_WITH_INVALID_POLICY: ReadonlySet<string> = new Set(["doctor.run"]);

export interface RuntimeSetup {
  layout: WorkspaceLayout;
  clock: Clock;
  identity?: IdentityOverrides;
  warn?: (message: string) => void;
  /** Interrupts every call in flight when aborted (a server shutting down). */
  signal?: AbortSignal;
  /** Set by `aop mcp`: its calls are recorded with `transport: "mcp"` (stdio) or `"mcp-http"` (docs/replay.md). */
  transport?: "mcp" | "mcp-http";
  /** The workspace's policy, when the caller loaded it already (else it is loaded here, tolerantly). */
  policy?: Pick<PolicyLoadResult, "policy" | "problems">;
}

/** The ports every runtime of this package is built with (tests add their own workspace and clock). */
export function kernelPorts(): Pick<ToolRuntimeOptions, "handlerLoader" | "recoveryLoader" | "activeRunId" | "runsWithInvalidPolicy"> {
  return { handlerLoader: loadHandler, recoveryLoader: loadRecovery, activeRunId: activeLeaseRunId, runsWithInvalidPolicy: RUNS_WITH_INVALID_POLICY };
}

export async function createRuntime(setup: RuntimeSetup): Promise<ToolRuntime> {
  const warn = setup.warn ?? ((m: string) => void process.stderr.write(`warning: ${m}\n`));
  // With an invalid policy every call but doctor.run fails with config_invalid; the timeline still
  // records them, using the defaults for any broken policy section. Loaded tolerantly, from the
  // snapshot of this very policy.yaml when there is one: most commands never load the YAML parser.
  const { policy, problems } = setup.policy ?? (await loadPolicySnapshot(setup.layout));
  const timelineHook = createTimelineHook(setup.layout, policy, setup.clock, warn, setup.transport);
  return new ToolRuntime({
    ...kernelPorts(),
    layout: setup.layout,
    clock: setup.clock,
    identity: setup.identity ?? {},
    warn,
    policy,
    policyProblems: problems,
    ...(timelineHook ? { timelineHook } : {}),
    ...(setup.signal ? { signal: setup.signal } : {}),
  });
}
