// Files other subsystems contribute to `aop init` (none yet beyond the config scaffold).
import type { ScaffoldFile } from "../config/scaffold.js";
import type { CliContext } from "./context.js";

export async function initExtraFiles(_ctx: CliContext): Promise<ScaffoldFile[]> {
  return [];
}
