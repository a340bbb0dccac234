// Which domain implements which tool. Domains load lazily, so a call pays only for its own domain.
import type { PipelineHandler, PipelineRecovery, ToolHandlers, ToolName, ToolRecoveries } from "../catalog/tool-types.js";
import type { HandlerLoader, RecoveryLoader } from "../runtime/tool-runtime.js";
import { pipelineHandler } from "./pipeline-handler.js";

type DomainLoader = () => Promise<ToolHandlers>;

/** Each domain's handlers. A call loads only the domain of its own tool (its index.ts and what that imports). */
const DOMAINS: Record<string, DomainLoader> = {
  features: async () => (await import("../domains/features/index.js")).loadTools(),
  runs: async () => (await import("../domains/runs/index.js")).loadTools(),
  replay: async () => (await import("../domains/replay/index.js")).loadTools(),
  timetravel: async () => (await import("../domains/timetravel/index.js")).loadTools(),
  search: async () => (await import("../domains/search/index.js")).loadTools(),
  doctor: async () =>
    (await import("../domains/doctor/index.js")).loadTools({
      families: async () => (await import("./doctor-checks.js")).DOCTOR_FAMILIES,
      selfCheck: toolSurfaceProblems,
    }),
  checkpoints: async () => (await import("../domains/checkpoints/index.js")).loadTools(),
  gates: async () => (await import("../domains/gates/index.js")).loadTools(),
  evidence: async () => (await import("../domains/evidence/index.js")).loadTools(),
  attest: async () => (await import("../domains/attest/index.js")).loadTools(),
};

/** Tool-name prefix → the domain that implements its tools. */
const PREFIX_DOMAIN: Record<string, string> = { feature: "features", run: "runs", session: "runs", replay: "replay", doctor: "doctor", checkpoint: "checkpoints", gates: "gates", evidence: "evidence" };

/**
 * Tools implemented by a layer on top of their prefix's domain: replay.state_at by timetravel,
 * replay.search by search (which reads every other record too), and evidence's verify_chain, attest,
 * anchor and prove by attest. A replay page never loads the time-travel or search domain.
 */
const LAYERED: Record<string, string> = {
  "replay.state_at": "timetravel",
  "replay.search": "search",
  "evidence.verify_chain": "attest",
  "evidence.attest": "attest",
  "evidence.anchor": "attest",
  "evidence.prove": "attest",
};

function domainOf(toolName: string): string | undefined {
  return LAYERED[toolName] ?? PREFIX_DOMAIN[toolName.slice(0, toolName.indexOf("."))];
}

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
  const domain = domainOf(toolName);
  if (domain === undefined) return undefined;
  let handlers = loaded.get(domain);
  if (!handlers) {
    handlers = await DOMAINS[domain]!();
    loaded.set(domain, handlers);
  }
  const handler = handlers[toolName as ToolName];
  return handler ? pipelineHandler(handler) : undefined;
};

/** Every handler of every domain, each from the domain its tool is served by (for the catalog self-check). */
async function loadAllHandlers(): Promise<Record<string, PipelineHandler>> {
  const all: Record<string, PipelineHandler> = {};
  for (const [domain, loader] of Object.entries(DOMAINS)) {
    for (const [name, handler] of Object.entries(await loader())) {
      if (domainOf(name) === domain && handler) all[name] = pipelineHandler(handler);
    }
  }
  return all;
}

/** Catalog, handlers and schemas disagreeing (the start-up self-check and DRIFT_003). */
export async function toolSurfaceProblems(): Promise<string[]> {
  const { selfCheckProblems } = await import("./self-check.js"); // only `aop mcp` and the doctor ask
  return selfCheckProblems(Object.keys(await loadAllHandlers()));
}
