// How agent configs should start aop: `aop` when the one on PATH is this installation, else node
// with this installation's absolute bin path.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const AOP_BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "bin", "aop.js");

export interface Launcher {
  command: string;
  args: string[];
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export function aopLauncher(env: NodeJS.ProcessEnv = process.env): Launcher {
  const found = onPath("aop", env);
  try {
    if (found && fs.realpathSync(found) === fs.realpathSync(AOP_BIN)) return { command: "aop", args: [] };
  } catch {
    // fall through to the explicit form
  }
  return { command: "node", args: [AOP_BIN] };
}

/** A shell command line (for hook settings) from a launcher and extra args. */
export function shellCommand(launcher: Launcher, extra: string[]): string {
  const quote = (s: string) => (/^[A-Za-z0-9_./:@+=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return [launcher.command, ...launcher.args, ...extra].map(quote).join(" ");
}
