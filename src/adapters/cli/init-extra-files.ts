// Files other subsystems contribute to `aop init`: the generated tool surface (tools.md).
import type { ScaffoldFile } from "../../config/scaffold.js";
import type { CliContext } from "./program/context.js";

export async function initExtraFiles(ctx: CliContext): Promise<ScaffoldFile[]> {
  const { toolsDocText } = await import("../../catalog/tools-doc-file.js");
  return [{ path: ctx.layout.toolsDoc, contents: toolsDocText }];
}
