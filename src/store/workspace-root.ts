// Which folder is the workspace: --root, else AOP_ROOT, else the nearest marked ancestor of cwd.
import fs from "node:fs";
import path from "node:path";

const MARKERS = [".aop", path.join("agentic", "orchestrator"), ".git"];

/** The nearest folder at or above `start` holding a workspace marker, or null when there is none. */
export function findMarkedRoot(start: string): string | null {
  let dir = path.resolve(start);
  for (;;) {
    if (MARKERS.some((marker) => fs.existsSync(path.join(dir, marker)))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

export function findWorkspaceRoot(options: { root?: string | undefined; env?: NodeJS.ProcessEnv; cwd?: string } = {}): string {
  const cwd = options.cwd ?? process.cwd();
  if (options.root) return path.resolve(cwd, options.root);
  const fromEnv = (options.env ?? process.env).AOP_ROOT;
  if (fromEnv) return path.resolve(cwd, fromEnv);
  return findMarkedRoot(cwd) ?? path.resolve(cwd);
}
