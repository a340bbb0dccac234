// `aop mcp --http` as a test starts it: a child process, its URL read from stderr, stopped by a signal.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { CLI_BIN } from "./paths.js";

export interface HttpServer {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (typeof v === "string" && !k.startsWith("AOP_")) env[k] = v;
  return { ...env, NO_COLOR: "1", ...extra };
}

/** Starts `aop mcp --http <listen>` in `root`; resolves once it printed its URL, rejects with its stderr if it exits first. */
export function startHttpServer(root: string, listen = "127.0.0.1:0", extraArgs: string[] = [], env: Record<string, string> = {}): Promise<HttpServer> {
  const child = spawn(process.execPath, [CLI_BIN, "mcp", "--root", root, "--http", listen, ...extraArgs], { cwd: root, env: cleanEnv(env), stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`aop mcp --http printed no URL in 20 s:\n${stderr}`)), 20_000);
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      const m = /serving MCP \(Streamable HTTP\) at (http:\/\/\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve({
          child,
          url: m[1]!,
          stderr: () => stderr,
          exited,
          stop: async (signal = "SIGTERM") => {
            child.kill(signal);
            return exited;
          },
        });
      }
    });
    void exited.then((e) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`aop mcp --http exited ${e.code}:\n${stderr}`), { code: e.code, stderr }));
    });
  });
}
