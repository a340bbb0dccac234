// `aop integrate <client>`: compute each config file's merged content; with --write, write them.
// Every file is read and checked before anything is written: one unparseable file stops them all.
import { AopError } from "../../core/errors.js";
import { writeFileAtomic } from "../../store/atomic-write.js";
import { readTextOrNull } from "../../store/file-hash.js";
import { readBytesBounded } from "../../store/read-text-bounded.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { aopLauncher } from "./aop-command.js";
import { aopApprovalIn, CLAUDE_LOCAL_SETTINGS, planFor, type ClientName } from "./client-configs.js";
import { integrationNextSteps, type ClaudeApproval } from "./next-steps.js";

export interface IntegrationFile {
  path: string;
  action: "create" | "update" | "unchanged";
  notes: string[];
  content: string;
}

const MAX_CONFIG_FILE_BYTES = 4 * 1024 * 1024;

async function parse(format: "json" | "toml", text: string): Promise<unknown> {
  if (format === "json") return JSON.parse(text);
  const { parse: parseToml } = await import("smol-toml");
  return parseToml(text);
}

function tomlTable(name: string, server: { command: string; args: string[] }): string {
  return `\n[mcp_servers.${name}]\ncommand = ${JSON.stringify(server.command)}\nargs = [${server.args.map((a) => JSON.stringify(a)).join(", ")}]\n`;
}

export interface IntegrationPlan {
  files: IntegrationFile[];
  /** What the user still has to do once the files are written. */
  next_steps: string[];
}

export async function planIntegration(layout: WorkspaceLayout, client: ClientName, env: NodeJS.ProcessEnv = process.env, options: { approveMcp?: boolean } = {}): Promise<IntegrationPlan> {
  const out: IntegrationFile[] = [];
  for (const planned of planFor(client, aopLauncher(env), layout.root, options)) {
    const file = layout.resolveInside(planned.path)!;
    // A special file, a link out of the workspace or an oversized file throws its own code.
    const text = readTextOrNull(file, MAX_CONFIG_FILE_BYTES);
    let existing: unknown = undefined;
    if (text !== null && text.trim() !== "") {
      try {
        existing = await parse(planned.format, text);
      } catch (err) {
        throw new AopError("invalid_argument", `${planned.path} cannot be parsed as ${planned.format.toUpperCase()} (${(err as Error).message.split("\n")[0]}); nothing was changed`, {
          hint: `fix or move ${planned.path}, then run aop integrate ${client} again`,
        });
      }
    }
    let merged;
    try {
      merged = planned.merge(existing);
    } catch (err) {
      throw new AopError("invalid_argument", `${planned.path}: ${(err as Error).message}; nothing was changed`, { hint: `fix ${planned.path} by hand` });
    }
    let content: string;
    if (!merged.changed && text !== null) content = text;
    else if (planned.format === "json") content = JSON.stringify(merged.value, null, 2) + "\n";
    else {
      // Append our table instead of re-serialising, so the user's comments and layout survive.
      const server = ((merged.value as { mcp_servers: Record<string, { command: string; args: string[] }> }).mcp_servers).aop!;
      const table = tomlTable("aop", server);
      content = text === null || text.trim() === "" ? table.trimStart() : text.replace(/\n*$/, "\n") + table;
    }
    out.push({ path: planned.path, action: text === null ? "create" : merged.changed ? "update" : "unchanged", notes: merged.notes, content });
  }
  const approval = client === "claude" ? claudeApproval(layout, out) : undefined;
  return { files: out, next_steps: integrationNextSteps(client, layout.root, approval) };
}

/** Whether the Claude Code settings (as they will be after this plan) approve or disable the aop server. */
function claudeApproval(layout: WorkspaceLayout, planned: IntegrationFile[]): ClaudeApproval {
  const documents = [".claude/settings.json", CLAUDE_LOCAL_SETTINGS].map((rel) => {
    const text = planned.find((f) => f.path === rel)?.content ?? readSmall(layout.resolveInside(rel)!);
    try {
      return text === null ? null : (JSON.parse(text) as unknown);
    } catch {
      return null;
    }
  });
  const states = documents.map(aopApprovalIn);
  return { approved: states.includes("approved"), disabled: states.includes("disabled") };
}

/** A small config file's text; null when it is missing, not a regular file inside the workspace, or too large. */
function readSmall(file: string): string | null {
  const read = readBytesBounded(file, MAX_CONFIG_FILE_BYTES);
  return read.status === "ok" ? read.bytes.toString("utf8") : null;
}

export function writeIntegration(layout: WorkspaceLayout, files: IntegrationFile[]): void {
  for (const f of files) if (f.action !== "unchanged") writeFileAtomic(layout.resolveInside(f.path)!, f.content);
}
