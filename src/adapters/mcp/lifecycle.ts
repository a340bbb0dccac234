// The MCP server's lifecycle (`aop mcp`): builds the kernel, serves every catalog tool over stdio
// (server.ts), runs the catalog self-check once the handshake is answered, files the MCP call entries no
// Claude Code session hook adopted, and shuts down when the client goes away or a signal comes: calls
// in flight are interrupted and get a grace period, then the process exits. The CLI command is a thin
// caller (adapters/cli/commands/mcp.ts). Its modules load when it runs, not with the module.
import type { Clock } from "../../core/clock.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import type { IdentityOverrides } from "../../runtime/run-context.js";

/** How long calls in flight get to settle (a gate: kill its steps, write its timeline entry) before exit. */
const SHUTDOWN_GRACE_MS = 5_000;
/** The catalog self-check runs once the handshake is answered, or after this long without one. */
const SELF_CHECK_AT_MS = 1_000;

export interface McpServerSetup {
  layout: WorkspaceLayout;
  clock: Clock;
  identity: IdentityOverrides;
  /** The package version the server announces. */
  version: string;
  /** A line for the operator (stderr: stdout carries only JSON-RPC), escaped as all text shown to people is. */
  log(line: string): void;
  /** Serve Streamable HTTP on this address instead of stdio (`--http`); the token is required off loopback. */
  http?: { listen: string; token?: string };
}

/**
 * Serves MCP on stdio until the client goes away (resolves 0) or SIGTERM/SIGINT (exits 143/130 once the last
 * answers are flushed); with `http`, on Streamable HTTP until SIGTERM/SIGINT.
 */
export async function runMcpServer(setup: McpServerSetup): Promise<number | void> {
  const [{ createRuntime, resolveActor }, { serveMcp }, { loadPolicySnapshot }] = await Promise.all([import("../../app/create-runtime.js"), import("./server.js"), import("../../config/policy-snapshot.js")]);
  resolveActor(setup.identity.actor, process.env); // fail fast on a bad --actor, before serving
  const listen = setup.http ? (await import("./http.js")).parseListen(setup.http.listen) : undefined; // and on a bad --http
  const warn = (m: string) => setup.log(`aop mcp: warning: ${m}`);
  // Loaded once: the runtime serves every call with it, and the handoff sweeps file entries by it. From
  // the snapshot every kernel command keeps, when policy.yaml and aop.yaml are the texts it was made of.
  const policy = await loadPolicySnapshot(setup.layout);
  // Aborted when the client goes away (stdin closes) or on SIGTERM/SIGINT: calls in flight are
  // interrupted (a gate kills its steps and records nothing, docs/evidence.md), then we exit. Every
  // call's signal includes this one, and a step started on an aborted signal is killed as it starts,
  // so no step outlives the server whether or not its call settles within the grace.
  const interrupt = new AbortController();
  const runtime = await createRuntime({ layout: setup.layout, clock: setup.clock, identity: setup.identity, signal: interrupt.signal, transport: listen ? "mcp-http" : "mcp", warn, policy });
  const doctorFamilies = async () => (await import("../../app/doctor-checks.js")).DOCTOR_FAMILIES;
  const services = { runtime, layout: setup.layout, clock: setup.clock, env: process.env, doctorFamilies };
  // MCP calls no Claude Code session hook adopted in time are filed in their own run: soon after
  // start (not before the handshake) and at the end.
  const sweep = async () => {
    const { sweepHandoffs } = await import("../../domains/replay/index.js");
    await sweepHandoffs(setup.layout, policy.policy, setup.clock, warn);
  };
  // The catalog self-check loads every domain's handlers: it runs once the handshake is answered (so
  // the client is not kept waiting, and the answer does not share the core with it), or after a second
  // without one. A broken install still stops the server at once.
  let checking = false;
  const selfCheck = () => {
    if (checking) return;
    checking = true;
    void import("../../app/handler-registry.js")
      .then(async ({ toolSurfaceProblems }) => {
        const problems = await toolSurfaceProblems();
        if (problems.length > 0) throw new Error(`tool catalog self-check failed: ${problems.join("; ")}`);
      })
      .catch((err: unknown) => {
        setup.log(`aop mcp: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      });
  };
  setTimeout(() => void sweep(), 2000).unref();
  if (listen) {
    // Listening for the signals before the URL is printed: a client may act on it at once.
    const signalled = new Promise<NodeJS.Signals>((resolve) => {
      process.once("SIGTERM", () => resolve("SIGTERM"));
      process.once("SIGINT", () => resolve("SIGINT"));
    });
    const [{ serveMcpHttp }, { mcpServerFactory }] = await Promise.all([import("./http.js"), import("./server.js")]);
    const served = await serveMcpHttp(await mcpServerFactory(services, setup.version), { listen, ...(setup.http?.token ? { token: setup.http.token } : {}), log: setup.log });
    setup.log(`aop mcp: serving MCP (Streamable HTTP) at ${served.url}`);
    setTimeout(selfCheck, SELF_CHECK_AT_MS).unref();
    return untilSignal(signalled, interrupt, runtime, async () => {
      await served.close();
      await sweep();
    });
  }
  const served = await serveMcp(services, setup.version, setup.log);
  void served.answered.then(() => setImmediate(selfCheck));
  setTimeout(selfCheck, SELF_CHECK_AT_MS).unref();
  // The transport also ends on its own when stdin ends (it may not emit 'close'): that is the client going too.
  const reason = await new Promise<"client_gone" | NodeJS.Signals>((resolve) => {
    void served.closed.then(() => resolve("client_gone"));
    process.stdin.once("close", () => resolve("client_gone"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
    process.once("SIGINT", () => resolve("SIGINT"));
  });
  interrupt.abort(reason);
  await runtime.whenIdle(SHUTDOWN_GRACE_MS);
  await sweep();
  if (reason === "client_gone") return 0;
  // Stdin is still open after a signal: leave once the last answers are flushed.
  process.stdout.write("", () => process.exit(reason === "SIGINT" ? 130 : 143));
}

/** HTTP serving ends on SIGTERM/SIGINT only: calls in flight are interrupted and get the grace period, then the process exits 143/130. */
async function untilSignal(signalled: Promise<NodeJS.Signals>, interrupt: AbortController, runtime: { whenIdle(ms: number): Promise<unknown> }, close: () => Promise<void>): Promise<never> {
  const signal = await signalled;
  interrupt.abort(signal);
  await runtime.whenIdle(SHUTDOWN_GRACE_MS);
  await close();
  process.exit(signal === "SIGINT" ? 130 : 143);
}
