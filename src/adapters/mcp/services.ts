// What the MCP server's handlers work with: the kernel for tools, the workspace for resources and prompts.
import type { Clock } from "../../core/clock.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import type { ToolRuntime } from "../../runtime/tool-runtime.js";
import type { DoctorCheck } from "../../domains/doctor/index.js";

export interface McpServices {
  runtime: ToolRuntime;
  layout: WorkspaceLayout;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  /** The doctor's checks (from the composition root), for the orientation's critical findings. */
  doctorChecks(): Promise<readonly DoctorCheck[]>;
}
