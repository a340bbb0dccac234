// The composition root of the kernel: builds the ToolRuntime the CLI and the MCP server use, with
// the domains' handlers, the active run lease and the workspace's timeline plugged into its ports.
import { activeLeaseRunId } from "../domains/runs/index.js";
import type { ToolRuntime, ToolRuntimeOptions } from "../runtime/tool-runtime.js";
import { loadHandler, loadRecovery } from "./handler-registry.js";
import { createRuntimeWith, RUNS_WITH_INVALID_POLICY, type RuntimeSetup } from "./runtime-base.js";

export { resolveActor } from "../runtime/run-context.js";
export type { RuntimeSetup } from "./runtime-base.js";

/** The ports every runtime of this package is built with (tests add their own workspace and clock). */
export function kernelPorts(): Pick<ToolRuntimeOptions, "handlerLoader" | "recoveryLoader" | "activeRunId" | "runsWithInvalidPolicy"> {
  return { handlerLoader: loadHandler, recoveryLoader: loadRecovery, activeRunId: activeLeaseRunId, runsWithInvalidPolicy: RUNS_WITH_INVALID_POLICY };
}

export function createRuntime(setup: RuntimeSetup): Promise<ToolRuntime> {
  return createRuntimeWith(setup, { handlerLoader: loadHandler, recoveryLoader: loadRecovery });
}
