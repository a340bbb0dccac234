// gates.yaml as loaded for the doctor and SessionStart, which read it at every run: loadGatesTolerant's
// result, kept in .aop/runtime/gates.snapshot.json beside the text it came from (config-snapshot.ts).
import type { WorkspaceLayout } from "../store/layout.js";
import { configText, keptResult } from "./config-snapshot.js";
import type { GatesLoadResult } from "./gates-loader.js";

/** loadGatesTolerant's result, from the snapshot when it was made of this gates.yaml by this build. */
export async function loadGatesSnapshot(layout: WorkspaceLayout): Promise<GatesLoadResult> {
  const source = configText(layout.gatesFile);
  if (source === null) return { gates: null, problems: [], exists: false, ownDefaultProfile: null };
  // The loader is loaded only when the snapshot does not answer.
  if (source === undefined) return (await import("./gates-loader.js")).loadGatesTolerant(layout); // refused (too large, not a file): the loader says why
  return keptResult(layout, layout.gatesSnapshotFile, { source }, async () => (await import("./gates-loader.js")).gatesFromText(source));
}
