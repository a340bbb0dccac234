// Builds the ToolRuntime the CLI and the MCP server use, with the workspace's timeline hook plugged in.
import type { Clock } from "../core/clock.js";
import { loadPolicyTolerant } from "../config/policy-loader.js";
import type { WorkspaceLayout } from "../store/layout.js";
import { createTimelineHook } from "../domains/replay/timeline-hook.js";
import type { IdentityOverrides } from "../runtime/run-context.js";
import { ToolRuntime } from "../runtime/tool-runtime.js";

export interface RuntimeSetup {
  layout: WorkspaceLayout;
  clock: Clock;
  identity?: IdentityOverrides;
  warn?: (message: string) => void;
}

export async function createRuntime(setup: RuntimeSetup): Promise<ToolRuntime> {
  const warn = setup.warn ?? ((m: string) => void process.stderr.write(`warning: ${m}\n`));
  // With an invalid policy every call but doctor.run fails with config_invalid; the timeline still
  // records them, using the defaults for any broken policy section.
  const { policy, problems } = await loadPolicyTolerant(setup.layout);
  const timelineHook = createTimelineHook(setup.layout, policy, setup.clock, warn);
  return new ToolRuntime({
    layout: setup.layout,
    clock: setup.clock,
    identity: setup.identity ?? {},
    warn,
    policy,
    policyProblems: problems,
    ...(timelineHook ? { timelineHook } : {}),
  });
}
