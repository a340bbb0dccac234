// MCP prompts of `aop mcp` (docs/kernel.md): `resume` (where to pick up, optionally for one skill) and
// `handoff` (what to write before stopping). Their texts come from the agents domain, the orientation
// from the same builder the Claude Code hook uses.
// The domains load on the first request, not at start-up.
import { AopError } from "../../core/errors.js";
import type { GetPromptResult, Server } from "./server-sdk.js";
import { ProtocolError, ProtocolErrorCode } from "./server-sdk.js";
import { ORIENTATION_URI } from "./resources.js";
import type { McpServices } from "./services.js";

/** What the prompts read: the workspace, not the kernel. */
export type PromptContext = Pick<McpServices, "layout" | "clock" | "env" | "doctorFamilies">;

const SKILL_ARGUMENT = { name: "skill", description: "the skill whose checkpoint to use (default: every open checkpoint)", required: false };

export const PROMPTS = [
  { name: "resume", title: "Resume work", description: "Start a session where the last one stopped: the orientation (decisions waiting on the user, state, next actions) and, for a skill, its resume block.", arguments: [SKILL_ARGUMENT] },
  { name: "handoff", title: "Hand off before stopping", description: "What to write down before stopping (CURRENT_STATE.md sections, the checkpoint, what to tell the user), with the current values.", arguments: [SKILL_ARGUMENT] },
];

function skillArgument(args: Record<string, string> | undefined): string | null {
  const skill = args?.skill;
  return typeof skill === "string" && skill.trim() !== "" ? skill.trim() : null;
}

function user(text: string): GetPromptResult["messages"][number] {
  return { role: "user", content: { type: "text", text } };
}

async function resume(services: PromptContext, skill: string | null): Promise<GetPromptResult> {
  const { layout, clock, env } = services;
  const { buildOrientation, resumeIntro } = await (await import("../../domains/agents/index.js")).loadClientContext();
  const orientation = await buildOrientation(layout, clock, env, await services.doctorFamilies());
  const messages: GetPromptResult["messages"] = [
    user(resumeIntro(skill)),
    { role: "user", content: { type: "resource", resource: { uri: ORIENTATION_URI, mimeType: "text/markdown", text: orientation.text } } },
  ];
  if (skill) {
    const { loadPolicyTolerant } = await import("../../config/policy-loader.js");
    const { renderResumeMarkdown, resumeSkill } = await import("../../domains/checkpoints/index.js");
    const { policy } = await loadPolicyTolerant(layout);
    messages.push(user(renderResumeMarkdown(await resumeSkill({ layout, clock }, skill, policy.checkpoints.stale_days))));
  }
  return { description: skill ? `Resume the ${skill} skill` : "Resume the work in this project", messages };
}

async function handoff(services: PromptContext, skill: string | null): Promise<GetPromptResult> {
  const { layout, clock, env } = services;
  const { buildOrientation, handoffText } = await (await import("../../domains/agents/index.js")).loadClientContext();
  const { sources } = await buildOrientation(layout, clock, env, []);
  return { description: "What to write down before stopping", messages: [user(handoffText(sources, skill))] };
}

/** A prompt by name; aop's own errors (an unknown prompt or skill) as AopError. */
export async function getPrompt(services: PromptContext, name: string, skill: string | null): Promise<GetPromptResult> {
  if (name === "resume") return resume(services, skill);
  if (name === "handoff") return handoff(services, skill);
  throw new AopError("invalid_argument", `unknown prompt '${name}' (prompts: ${PROMPTS.map((p) => p.name).join(", ")})`);
}

export function registerPrompts(server: Server, services: McpServices): void {
  server.setRequestHandler("prompts/list", async () => ({ prompts: PROMPTS }));
  server.setRequestHandler("prompts/get", async (request) => {
    try {
      return await getPrompt(services, request.params.name, skillArgument(request.params.arguments));
    } catch (err) {
      // What the client asked for does not exist: invalid params, with aop's code and hint as data.
      if (err instanceof AopError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${request.params.name}: ${err.message}`, { code: err.code, ...(err.hint ? { hint: err.hint } : {}) });
      throw err;
    }
  });
}
