// What every command receives: the workspace, the clock, output streams and the global flags.
import type { Clock } from "../../core/clock.js";
import { clockFromEnv } from "../../core/clock.js";
import { WorkspaceLayout } from "../../store/layout.js";
import { findWorkspaceRoot } from "../../store/workspace-root.js";
import { stdoutTarget, writeStdout } from "./output/stdout.js";
import { colorEnabled, makeStyle, type Style } from "./output/style.js";

export interface GlobalOptions {
  root?: string;
  transport?: string;
  runId?: string;
  sessionId?: string;
  actor?: string;
  json?: boolean;
}

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

export function createContext(globals: GlobalOptions, options: { checkpointsDir?: string } = {}): CliContext {
  const json = globals.json === true;
  const root = findWorkspaceRoot({ root: globals.root });
  let errStyle: Style | undefined;
  return {
    layout: new WorkspaceLayout(root, options),
    clock: clockFromEnv(),
    json,
    style: makeStyle(colorEnabled(stdoutTarget, json)),
    // Lazy: touching process.stderr builds a stream, which most commands never need.
    get errStyle() {
      return (errStyle ??= makeStyle(colorEnabled(process.stderr, json)));
    },
    globals,
    out: (text) => writeStdout(text.endsWith("\n") ? text : text + "\n"),
    err: (text) => void process.stderr.write(text.endsWith("\n") ? text : text + "\n"),
    printJson: (value) => writeStdout(JSON.stringify(value, null, 2) + "\n"),
  };
}
