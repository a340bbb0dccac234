// Where agent runtimes keep their state outside the workspace: OpenClaw's state dir, Claude Code's
// config dir. Pure: the environment and the home directory are passed in, so tests use fake homes.
import path from "node:path";

export interface HomeEnv {
  env: NodeJS.ProcessEnv;
  homeDir: string;
}

/** `~` and `~/x` → the home directory; `${VAR}` → its value from `env` (empty when unset). */
export function expandUserPath(value: string, home: HomeEnv): string {
  const substituted = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => home.env[name] ?? "");
  if (substituted === "~") return home.homeDir;
  if (substituted.startsWith("~/") || substituted.startsWith("~\\")) return path.join(home.homeDir, substituted.slice(2));
  return substituted;
}

/** `$OPENCLAW_STATE_DIR`, else `~/.openclaw`. */
export function openclawStateDir(home: HomeEnv): string {
  const fromEnv = home.env.OPENCLAW_STATE_DIR;
  return path.resolve(fromEnv ? expandUserPath(fromEnv, home) : path.join(home.homeDir, ".openclaw"));
}

/** `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(home: HomeEnv): string {
  const fromEnv = home.env.CLAUDE_CONFIG_DIR;
  return path.resolve(fromEnv ? expandUserPath(fromEnv, home) : path.join(home.homeDir, ".claude"));
}

/**
 * The names Claude Code may have given a workspace's folder under `projects/`: the documented form
 * (`/` → `-`) and the one current releases write (every character but ASCII letters and digits → `-`).
 */
export function claudeProjectDirNames(workspaceRoot: string): string[] {
  const resolved = path.resolve(workspaceRoot);
  return [...new Set([resolved.replace(/[/\\]/g, "-"), resolved.replace(/[^A-Za-z0-9]/g, "-")])];
}
