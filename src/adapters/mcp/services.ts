// What the MCP server's handlers work with: the kernel for tools, the workspace for resources and prompts.
import type { Clock } from "../../core/clock.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import type { ToolRuntime } from "../../runtime/tool-runtime.js";
import type { DoctorFamily } from "../../domains/doctor/index.js";

export interface McpServices {
  runtime: ToolRuntime;
  layout: WorkspaceLayout;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  /** The doctor's families (from the composition root), for the orientation's critical findings. */
  doctorFamilies(): Promise<readonly DoctorFamily[]>;
}
