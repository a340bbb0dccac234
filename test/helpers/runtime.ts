// Builds an in-process ToolRuntime on a temp workspace for tests.
import { fixedClock } from "../../src/core/clock.js";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { ToolRuntime, type ToolRuntimeOptions } from "../../src/runtime/tool-runtime.js";
import { kernelPorts } from "../../src/app/create-runtime.js";
import { tempWorkspace } from "./tmp.js";

const T0 = "2026-03-01T10:00:00.000Z";

export function testRuntime(overrides: Partial<ToolRuntimeOptions> = {}) {
  const layout = overrides.layout ?? new WorkspaceLayout(tempWorkspace());
  const clock = fixedClock(T0);
  const runtime = new ToolRuntime({ ...kernelPorts(), layout, clock, env: {}, warn: () => undefined, ...overrides });
  return { runtime, layout, clock };
}

let counter = 0;
export function opId(label = "op"): string {
  counter += 1;
  return `${label}-${String(counter).padStart(6, "0")}`;
}
