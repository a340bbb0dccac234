// What the user still has to do after `aop integrate <client> --write`: the parts aop cannot do for
// them (trusting a folder is the user's own decision) or does only when asked. Pure. docs/agents.md.
import type { ClientName } from "./client-configs.js";

export interface ClaudeApproval {
  /** The `aop` server of `.mcp.json` is approved in the project's Claude Code settings. */
  approved: boolean;
  /** ... and explicitly disabled there (then aop leaves it alone). */
  disabled: boolean;
}

/** What OpenClaw's steps name: aop's MCP server entry and the scheduled doctor's `openclaw cron add` line. */
export interface OpenclawSetup {
  server: { command: string; args: string[] };
  cron: string;
}

const sq = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function integrationNextSteps(client: ClientName, root: string, claude: ClaudeApproval = { approved: false, disabled: false }, openclaw?: OpenclawSetup): string[] {
  switch (client) {
    case "claude": {
      const steps: string[] = [];
      if (claude.disabled) steps.push("The aop server is listed in disabledMcpjsonServers of your Claude Code settings: remove it there to use aop's tools.");
      else if (!claude.approved) {
        steps.push(
          'Claude Code shows a server from .mcp.json as "Pending approval" and does not connect it until you approve it: run `aop integrate claude --write --approve-mcp` (adds "aop" to enabledMcpjsonServers in .claude/settings.local.json, for you only, not shared), or start `claude` here and approve aop when it asks.',
        );
      }
      steps.push(`Claude Code honours project approvals only in a folder you trust: if you have not opened \`claude\` in ${root} before, run it there once and accept the trust dialog.`);
      steps.push("Check with `claude mcp list`: it should show `aop: … ✔ Connected`. The hooks run in every Claude Code session started here from now on.");
      return steps;
    }
    case "codex":
      return [
        `Codex reads .codex/config.toml and .codex/hooks.json only in a trusted project and shows nothing until then: run \`codex\` in ${root} and trust the folder when it asks, or add to ~/.codex/config.toml:\n[projects.${JSON.stringify(root)}]\ntrust_level = "trusted"`,
        "Codex runs a hook only once you have reviewed it: start `codex` there and trust aop's hooks when it lists them (or with /hooks).",
        "Check with `codex mcp list`: it should list aop.",
      ];
    case "gemini":
      return [
        `Gemini CLI reads a project's .gemini/settings.json only in a trusted folder: start \`gemini\` in ${root} and trust it when asked (or add it to ~/.gemini/trustedFolders.json).`,
        "Check with `gemini mcp list`: it should list aop as connected; the hooks run in every session started there.",
      ];
    case "cursor":
      return [
        "Cursor starts the servers of .cursor/mcp.json when it opens the project: check that aop is enabled in Cursor's MCP settings.",
        "Cursor reads .cursor/hooks.json when the project opens: its Hooks settings tab lists aop's hooks.",
      ];
    case "opencode":
      return [`opencode loads opencode.json and the plugin in .opencode/plugin/ when it starts in ${root}: check with \`opencode mcp list\` that aop is listed.`];
    case "openclaw": {
      // OpenClaw keeps these in the user's Gateway config and state (~/.openclaw): its own CLI writes them.
      const steps = [
        `OpenClaw finds the plugin in .openclaw/extensions/aop/ when ${root} is an agent's workspace (\`openclaw config set agents.defaults.workspace ${sq(root)}\`, or the agent's own workspace), but loads a workspace plugin only once you enable it, and gives it the prompt and finalize hooks only with conversation access:\nopenclaw plugins enable aop\nopenclaw config set plugins.entries.aop.hooks.allowConversationAccess true`,
      ];
      if (openclaw) {
        steps.push(`Add aop's MCP server to OpenClaw (mcp.servers.aop):\nopenclaw mcp set aop ${sq(JSON.stringify(openclaw.server))}`);
        steps.push(`Schedule the continuity and checkpoint checks in OpenClaw's scheduler (with its Gateway running; the report is kept in ${root}):\n${openclaw.cron}`);
      }
      steps.push("Check with `openclaw plugins inspect aop --runtime --json` (status `loaded`, its typed hooks listed) and `openclaw mcp show aop`.");
      return steps;
    }
  }
}
