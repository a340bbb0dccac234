// The runtime of `aop evidence verify`'s lean route: the same pipeline (RBAC, schemas, timeline),
// serving only evidence.verify_chain, so the route loads nothing of the other tools.
import { loadTools } from "../domains/attest/index.js";
import type { HandlerLoader, ToolRuntime } from "../runtime/tool-runtime.js";
import { pipelineHandler } from "./pipeline-handler.js";
import { createRuntimeWith, type RuntimeSetup } from "./runtime-base.js";

const verifyHandler: HandlerLoader = async (toolName) => {
  if (toolName !== "evidence.verify_chain") return undefined;
  return pipelineHandler((await loadTools())["evidence.verify_chain"]!);
};

export function createEvidenceVerifyRuntime(setup: RuntimeSetup): Promise<ToolRuntime> {
  return createRuntimeWith(setup, { handlerLoader: verifyHandler }); // a read-only tool: no recoveries
}
