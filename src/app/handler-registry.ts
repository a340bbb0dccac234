// Which domain implements which tool. Domains load lazily, so a call pays only for its own domain.
import type { PipelineHandler, PipelineRecovery, ToolHandlers, ToolName, ToolRecoveries } from "../catalog/tool-types.js";
import type { HandlerLoader, RecoveryLoader } from "../runtime/tool-runtime.js";
import { pipelineHandler } from "./pipeline-handler.js";

type DomainLoader = () => Promise<ToolHandlers>;


/** Tool-name prefix → the domain's handlers. */
const DOMAINS: Record<string, DomainLoader> = {
  feature: async () => (await import("../domains/features/index.js")).loadTools(),
  run: async () => (await import("../domains/runs/index.js")).loadTools(),
  session: async () => (await import("../domains/runs/index.js")).loadTools(),
  // replay.timeline_get from the replay domain; replay.state_at from timetravel (its layer on top); replay.search
  // from search (which reads every other record too).
  replay: async () => ({
    ...(await (await import("../domains/replay/index.js")).loadTools()),
    ...(await (await import("../domains/timetravel/index.js")).loadTools()),
    ...(await (await import("../domains/search/index.js")).loadTools()),
  }),
  doctor: async () =>
    (await import("../domains/doctor/index.js")).loadTools({
      families: async () => (await import("./doctor-checks.js")).DOCTOR_FAMILIES,
      selfCheck: toolSurfaceProblems,
    }),
  checkpoint: async () => (await import("../domains/checkpoints/index.js")).loadTools(),
  gates: async () => (await import("../domains/gates/index.js")).loadTools(),
  // evidence.latest from the evidence domain; verify_chain, attest, anchor and prove from attest (its layer on top).
  evidence: async () => ({ ...(await (await import("../domains/evidence/index.js")).loadTools()), ...(await (await import("../domains/attest/index.js")).loadTools()) }),
};

// Domains whose tools can finish a call killed half way (the others answer operation_interrupted).
const RECOVERIES: Record<string, () => Promise<ToolRecoveries>> = {
  gates: async () => (await import("../domains/gates/index.js")).loadRecoveries(),
};

const loaded = new Map<string, ToolHandlers>();

export const loadRecovery: RecoveryLoader = async (toolName) => {
  const recovery = (await RECOVERIES[toolName.slice(0, toolName.indexOf("."))]?.())?.[toolName as ToolName];
  return recovery ? (recovery as unknown as PipelineRecovery) : undefined;
};

export const loadHandler: HandlerLoader = async (toolName): Promise<PipelineHandler | undefined> => {
  const prefix = toolName.slice(0, toolName.indexOf("."));
  let handlers = loaded.get(prefix);
  if (!handlers) {
    const loader = DOMAINS[prefix];
    if (!loader) return undefined;
    handlers = await loader();
    loaded.set(prefix, handlers);
  }
  const handler = handlers[toolName as ToolName];
  return handler ? pipelineHandler(handler) : undefined;
};

/** Every handler of every domain (for the catalog self-check). */
async function loadAllHandlers(): Promise<Record<string, PipelineHandler>> {
  const all: Record<string, PipelineHandler> = {};
  for (const [prefix, loader] of Object.entries(DOMAINS)) {
    for (const [name, handler] of Object.entries(await loader())) {
      if (name.split(".")[0] === prefix && handler) all[name] = pipelineHandler(handler);
    }
  }
  return all;
}

/** Catalog, handlers and schemas disagreeing (the start-up self-check and DRIFT_003). */
export async function toolSurfaceProblems(): Promise<string[]> {
  const { selfCheckProblems } = await import("./self-check.js"); // only `aop mcp` and the doctor ask
  return selfCheckProblems(Object.keys(await loadAllHandlers()));
}
