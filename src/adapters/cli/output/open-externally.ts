// `--open`: hands a file or URL to the platform's opener (xdg-open, open, start), detached, when one
// is installed; aop never waits for it nor reads its output.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

function onPath(command: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** The opener started, or null when the platform has none installed. */
export function openExternally(target: string, env: NodeJS.ProcessEnv = process.env): string | null {
  let command: string | null;
  let args: string[];
  if (process.platform === "win32") {
    command = "cmd";
    args = ["/c", "start", "", target];
  } else {
    command = onPath(process.platform === "darwin" ? "open" : "xdg-open", env);
    args = [target];
  }
  if (command === null) return null;
  try {
    const child = spawn(command, args, { detached: true, stdio: "ignore", env });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    return null;
  }
  return command;
}
