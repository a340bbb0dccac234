// `aop report --serve` as a real process for the report's tests, and plain HTTP requests to it.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { CLI_BIN } from "./paths.js";

export interface Served {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
}

/** Start `aop report --serve --port 0` on `root`; `nodeArgs` go to node before the CLI (e.g. --require). */
export async function serveReport(root: string, nodeArgs: string[] = []): Promise<Served> {
  const child = spawn(process.execPath, [...nodeArgs, CLI_BIN, "report", "--serve", "--port", "0", "--json", "--root", root], { env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n")) resolve((JSON.parse(line!) as { url: string }).url);
    });
    child.on("close", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return { child, url, exited, stderr: () => err };
}

export function get(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

export interface EventClient {
  /** What the stream sent so far. */
  text(): string;
  /** Leave: the connection is closed from this side. */
  leave(): void;
}

/** Open the live stream of `runId` and resolve once its first bytes arrived. */
export function openEvents(url: string, runId: string): Promise<EventClient> {
  return new Promise((resolve, reject) => {
    const u = new URL(`events?run=${encodeURIComponent(runId)}&cursor=0`, url);
    let text = "";
    const req = http.get({ host: u.hostname, port: u.port, path: u.pathname + u.search }, (res) => {
      res.on("data", (d: Buffer) => {
        const first = text === "";
        text += d.toString();
        if (first) resolve({ text: () => text, leave: () => req.destroy() });
      });
      res.on("error", () => undefined); // a stream we close ourselves ends with an abort
    });
    req.on("error", (err) => (text === "" ? reject(err) : undefined));
  });
}
