// Wraps a command body: builds the context, maps errors to the envelope / exit code contract.
import type { Command } from "commander";
import { AopError, envelopeFromError, isAopError } from "../../../core/errors.js";
import { createContext, type CliContext, type GlobalOptions } from "./context.js";
import { EXIT_FAILED, EXIT_USAGE } from "./exit-codes.js";
import { escapeControl } from "../output/escape.js";
import { writeStdout } from "../../stdout.js";

/** A command's body: the options commander parsed (typed by the command's FlagValues), then its arguments. */
export type CommandBody<A extends unknown[], O = Record<string, unknown>> = (ctx: CliContext, opts: O, ...args: A) => Promise<number | void>;

export interface RunOptions {
  /** Options (by attribute name) that select the checkpoints folder. */
  checkpointsDirOption?: string;
  /** Folders that also mark a workspace for this command (a protocol's own folder). */
  rootMarkers?: readonly string[];
  /** The command creates the workspace (aop init): a new --root folder, or the current one, is fine. */
  createsWorkspace?: boolean;
}

/** A commander action that runs `body` with a context and turns failures into exit codes. */
export function runCommand<A extends unknown[], O = Record<string, unknown>>(body: CommandBody<A, O>, runOptions: RunOptions = {}) {
  return async (...received: unknown[]): Promise<void> => {
    const command = received[received.length - 1] as Command;
    const opts = command.optsWithGlobals<Record<string, unknown> & GlobalOptions>();
    try {
      const dirOption = runOptions.checkpointsDirOption ? (opts[runOptions.checkpointsDirOption] as string | undefined) : undefined;
      rejectEmptyValues(opts);
      const ctx = createContext(opts, {
        ...(dirOption !== undefined ? { checkpointsDir: dirOption } : {}),
        ...(runOptions.rootMarkers ? { rootMarkers: runOptions.rootMarkers } : {}),
        ...(runOptions.createsWorkspace ? { createsWorkspace: true } : {}),
      });
      // The one place a workspace folder is made: every other write refuses to create a missing root.
      if (runOptions.createsWorkspace === true) (await import("../../../store/atomic-write.js")).createWorkspaceFolder(ctx.layout.root);
      const code = await body(ctx, opts as O, ...(received.slice(0, -2) as A));
      process.exitCode = typeof code === "number" ? code : 0;
    } catch (err) {
      process.exitCode = reportError(err, opts.json === true);
    }
  };
}

/**
 * An empty string given to any flag (`--operation-id ""`) or identity variable (AOP_RUN_ID="") is a
 * mistake, not "absent": refused with invalid_argument naming it (docs/hardening.md).
 */
function rejectEmptyValues(opts: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): void {
  for (const [key, value] of Object.entries(opts)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => v === "")) {
      const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
      throw new AopError("invalid_argument", `${flag} is empty; an empty value does not mean "not set"`, { details: { field: flag }, hint: `give ${flag} a value, or leave it out` });
    }
  }
  for (const name of ["AOP_ROOT", "AOP_RUN_ID", "AOP_SESSION_ID", "AOP_ACTOR"]) {
    if (env[name] === "") throw new AopError("invalid_argument", `${name} is set but empty; an empty value does not mean "not set"`, { details: { field: name }, hint: `unset ${name} or give it a value` });
  }
}

export function reportError(err: unknown, json: boolean): number {
  const envelope = envelopeFromError(err);
  if (envelope.ok) return 0;
  const code = envelope.error.code === "usage_error" ? EXIT_USAGE : EXIT_FAILED;
  if (json) {
    writeStdout(JSON.stringify(envelope, null, 2) + "\n");
  } else {
    process.stderr.write(`error ${envelope.error.code}: ${escapeControl(envelope.error.message)}\n`);
    const hint = typeof envelope.error.details.hint === "string" ? envelope.error.details.hint : isAopError(err) ? err.hint : undefined;
    if (hint) process.stderr.write(`hint: ${escapeControl(hint)}\n`);
  }
  if (process.env.AOP_DEBUG === "1" && err instanceof Error && err.stack) process.stderr.write(err.stack + "\n");
  return code;
}

export function usageError(message: string, hint?: string): AopError {
  return new AopError("usage_error", message, hint === undefined ? {} : { hint });
}

/** Help text shown after the options: one or more runnable examples. */
export function examples(...lines: string[]): string {
  return `\nExample${lines.length > 1 ? "s" : ""}:\n${lines.map((l) => `  $ ${l}`).join("\n")}\n`;
}
