// What every command receives: the workspace, the clock, output streams and the global flags.
import path from "node:path";
import type { Clock } from "../../../core/clock.js";
import { AopError } from "../../../core/errors.js";
import { clockFromEnv } from "../../../core/clock.js";
import { WorkspaceLayout } from "../../../store/layout.js";
import { findWorkspaceRoot } from "../../../store/workspace-root.js";
import { sanitizeOutput } from "../output/escape.js";
import { stdoutTarget, writeStdout } from "../../stdout.js";
import { colorEnabled, makeStyle, type Style } from "../output/style.js";
import type { GlobalOptions } from "../flags/global-flags.js";

export type { GlobalOptions };

export interface CliContext {
  layout: WorkspaceLayout;
  clock: Clock;
  json: boolean;
  style: Style;
  errStyle: Style;
  globals: GlobalOptions;
  out(text: string): void;
  err(text: string): void;
  /** Print a machine payload (the --json contract): one JSON document on stdout. */
  printJson(value: unknown): void;
}

export interface ContextOptions {
  checkpointsDir?: string;
  /** Folders that also mark a workspace for this command (see store/workspace-root.ts). */
  rootMarkers?: readonly string[];
  /** `aop init`: may create the workspace (a new --root folder, or the current folder). */
  createsWorkspace?: boolean;
}

/** The workspace root; a named checkpoints folder (--dir) outside any workspace is its own project. */
function rootFor(globals: GlobalOptions, options: ContextOptions): string {
  try {
    return findWorkspaceRoot({ root: globals.root, extraMarkers: options.rootMarkers ?? [], createsWorkspace: options.createsWorkspace === true });
  } catch (err) {
    if (options.checkpointsDir === undefined || globals.root !== undefined || !(err instanceof AopError) || err.code !== "workspace_not_found") throw err;
    return path.dirname(path.resolve(options.checkpointsDir));
  }
}

export function createContext(globals: GlobalOptions, options: ContextOptions = {}): CliContext {
  const json = globals.json === true;
  let errStyle: Style | undefined;
  let layout: WorkspaceLayout | undefined;
  const style = makeStyle(colorEnabled(stdoutTarget, json));
  // process.stderr (a stream, built on first access) only when colours could be on.
  const stderrStyle = () => (errStyle ??= makeStyle(!json && colorEnabled(process.stderr, json)));
  return {
    // Resolved on first use: commands that never touch a workspace (aop tools) work anywhere, and the
    // others fail with workspace_not_found instead of writing into an unmarked folder.
    get layout() {
      return (layout ??= new WorkspaceLayout(rootFor(globals, options), options.checkpointsDir === undefined ? {} : { checkpointsDir: options.checkpointsDir }));
    },
    clock: clockFromEnv(),
    json,
    style,
    // Lazy: touching process.stderr builds a stream, which most commands never need.
    get errStyle() {
      return stderrStyle();
    },
    globals,
    // Human output passes through sanitizeOutput: agent text never drives the terminal.
    out: (text) => writeStdout(sanitizeOutput(text.endsWith("\n") ? text : text + "\n", style.enabled)),
    err: (text) => void process.stderr.write(sanitizeOutput(text.endsWith("\n") ? text : text + "\n", stderrStyle().enabled)),
    printJson: (value) => writeStdout(JSON.stringify(value, null, 2) + "\n"),
  };
}
