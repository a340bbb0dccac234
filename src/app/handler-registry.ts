// Which domain implements which tool. Domains load lazily, so a call pays only for its own domain.
import type { ToolHandler, ToolHandlers, ToolRecoveries } from "../catalog/tool-types.js";
import type { HandlerLoader, RecoveryLoader } from "../runtime/tool-runtime.js";
import { selfCheckProblems } from "./self-check.js";

type DomainLoader = () => Promise<ToolHandlers>;

/** Tool-name prefix → the domain's handlers. */
const DOMAINS: Record<string, DomainLoader> = {
  feature: async () => (await import("../domains/features/index.js")).loadTools(),
  run: async () => (await import("../domains/runs/index.js")).loadTools(),
  session: async () => (await import("../domains/runs/index.js")).loadTools(),
  replay: async () => (await import("../domains/replay/index.js")).loadTools(),
  doctor: async () =>
    (await import("../domains/doctor/index.js")).loadTools({
      checks: async () => (await import("./doctor-checks.js")).allChecks(),
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

export const loadRecovery: RecoveryLoader = async (toolName) => (await RECOVERIES[toolName.slice(0, toolName.indexOf("."))]?.())?.[toolName];

export const loadHandler: HandlerLoader = async (toolName): Promise<ToolHandler | undefined> => {
  const prefix = toolName.slice(0, toolName.indexOf("."));
  let handlers = loaded.get(prefix);
  if (!handlers) {
    const loader = DOMAINS[prefix];
    if (!loader) return undefined;
    handlers = await loader();
    loaded.set(prefix, handlers);
  }
  return handlers[toolName];
};

/** Every handler of every domain (for the catalog self-check). */
export async function loadAllHandlers(): Promise<ToolHandlers> {
  const all: ToolHandlers = {};
  for (const [prefix, loader] of Object.entries(DOMAINS)) {
    for (const [name, handler] of Object.entries(await loader())) {
      if (name.split(".")[0] === prefix) all[name] = handler;
    }
  }
  return all;
}

/** Catalog, handlers and schemas disagreeing (the start-up self-check and DRIFT_003). */
export async function toolSurfaceProblems(): Promise<string[]> {
  return selfCheckProblems(Object.keys(await loadAllHandlers()));
}
