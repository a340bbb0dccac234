// Which module implements which tool. Domains load lazily, so a call pays only for its own domain.
import type { ToolHandler, ToolHandlers } from "../catalog/tool-types.js";

type DomainLoader = () => Promise<ToolHandlers>;

/** Tool-name prefix → the domain module exporting `handlers`. */
const DOMAINS: Record<string, DomainLoader> = {
  feature: async () => (await import("../domains/features/tools.js")).handlers,
  run: async () => (await import("../domains/runs/tools.js")).handlers,
  session: async () => (await import("../domains/runs/tools.js")).handlers,
  replay: async () => (await import("../domains/replay/tools.js")).handlers,
  doctor: async () => (await import("../domains/doctor/tools.js")).handlers,
  checkpoint: async () => (await import("../domains/checkpoints/tools.js")).handlers,
  gates: async () => (await import("../domains/gates/tools.js")).handlers,
  evidence: async () => (await import("../domains/evidence/tools.js")).handlers,
};

export type HandlerLoader = (toolName: string) => Promise<ToolHandler | undefined>;

const loaded = new Map<string, ToolHandlers>();

export const loadHandler: HandlerLoader = async (toolName) => {
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
