// Builds the ToolRuntime the CLI and the MCP server use, with the workspace's timeline hook plugged in.
import type { Clock } from "../core/clock.js";
import { isAopError } from "../core/errors.js";
import { loadPolicy } from "../config/policy-loader.js";
import type { Policy } from "../config/policy-types.js";
import type { WorkspaceLayout } from "../store/layout.js";
import { createTimelineHook } from "../replay/timeline-hook.js";
import type { IdentityOverrides } from "./run-context.js";
import { ToolRuntime } from "./tool-runtime.js";

export interface RuntimeSetup {
  layout: WorkspaceLayout;
  clock: Clock;
  identity?: IdentityOverrides;
  warn?: (message: string) => void;
}

export async function createRuntime(setup: RuntimeSetup): Promise<ToolRuntime> {
  const warn = setup.warn ?? ((m: string) => void process.stderr.write(`warning: ${m}\n`));
  let policy: Policy | undefined;
  try {
    policy = await loadPolicy(setup.layout);
  } catch (err) {
    // An invalid policy makes every call fail with config_invalid (the runtime reloads and reports it).
    if (!isAopError(err) || err.code !== "config_invalid") throw err;
  }
  const timelineHook = policy ? createTimelineHook(setup.layout, policy, setup.clock, warn) : undefined;
  return new ToolRuntime({
    layout: setup.layout,
    clock: setup.clock,
    identity: setup.identity ?? {},
    warn,
    ...(policy ? { policy } : {}),
    ...(timelineHook ? { timelineHook } : {}),
  });
}
