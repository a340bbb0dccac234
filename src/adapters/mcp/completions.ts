// completion/complete of `aop mcp` (docs/mcp.md): a prompt's `skill` argument and the checkpoint
// resource's {skill} complete from the checkpoints folder, the replay resource's {run_id} from the runs.
// Anything else completes to nothing (the request is valid; there is just nothing to offer).
import type { Server } from "./server-sdk.js";
import type { McpServices } from "./services.js";
import { PROMPTS } from "./prompts.js";

/** MCP's cap on the values of one completion. */
const MAX_VALUES = 100;

async function skills(services: McpServices): Promise<string[]> {
  const { scanFolder } = await import("../../domains/checkpoints/index.js");
  return (await scanFolder({ layout: services.layout, clock: services.clock })).files.map((f) => f.skill);
}

async function runIds(services: McpServices): Promise<string[]> {
  const { listRuns } = await import("../../domains/replay/index.js");
  return (await listRuns(services.layout)).filter((r) => r.problem === null).map((r) => r.run_id);
}

/** The candidates for one argument of a prompt or resource template, or none. */
async function candidates(services: McpServices, ref: { type: string; name?: string; uri?: string }, argument: string): Promise<string[]> {
  if (ref.type === "ref/prompt" && PROMPTS.some((p) => p.name === ref.name) && argument === "skill") return skills(services);
  if (ref.type === "ref/resource" && ref.uri === "aop://checkpoints/{skill}" && argument === "skill") return skills(services);
  if (ref.type === "ref/resource" && ref.uri === "aop://replay/{run_id}" && argument === "run_id") return runIds(services);
  return [];
}

export function registerCompletions(server: Server, services: McpServices): void {
  server.setRequestHandler("completion/complete", async (request) => {
    const { ref, argument } = request.params;
    const all = (await candidates(services, ref as { type: string; name?: string; uri?: string }, argument.name)).filter((v) => v.startsWith(argument.value)).sort();
    return { completion: { values: all.slice(0, MAX_VALUES), total: all.length, hasMore: all.length > MAX_VALUES } };
  });
}
