// Builds the ToolRuntime the CLI and the MCP server use, with the workspace's timeline hook plugged in.
import type { Clock } from "../core/clock.js";
import type { WorkspaceLayout } from "../store/layout.js";
import type { IdentityOverrides } from "./run-context.js";
import { ToolRuntime } from "./tool-runtime.js";

export interface RuntimeSetup {
  layout: WorkspaceLayout;
  clock: Clock;
  identity?: IdentityOverrides;
  warn?: (message: string) => void;
}

export async function createRuntime(setup: RuntimeSetup): Promise<ToolRuntime> {
  return new ToolRuntime({ layout: setup.layout, clock: setup.clock, identity: setup.identity ?? {}, ...(setup.warn ? { warn: setup.warn } : {}) });
}
