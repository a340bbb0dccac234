// The policy of a process that starts for one event or command (the Claude Code hook, after every tool
// call of the agent; every CLI command through the kernel; the doctor): loadPolicyTolerant's result,
// kept in .aop/runtime/policy.snapshot.json beside the texts of policy.yaml and aop.yaml it came from
// (config-snapshot.ts).
import type { WorkspaceLayout } from "../store/layout.js";
import { configText, keptResult } from "./config-snapshot.js";
import { policyWithoutUserFile } from "./policy-defaults.js";
import type { PolicyLoadResult } from "./policy-types.js";

/** loadPolicyTolerant's result, from the snapshot when it was made of this policy.yaml and aop.yaml by this build. */
export async function loadPolicySnapshot(layout: WorkspaceLayout): Promise<PolicyLoadResult> {
  const source = configText(layout.policyFile);
  const aopSource = configText(layout.aopConfigFile);
  // Neither file (the defaults, read in microseconds) or one the loader refuses: nothing to keep. The
  // loader, with the YAML parser behind it, is loaded only when the snapshot does not answer.
  if (source === null && aopSource === null) return policyWithoutUserFile();
  if (source === undefined || aopSource === undefined) return (await import("./policy-loader.js")).loadPolicyTolerant(layout);
  return keptResult(layout, layout.policySnapshotFile, { source, aop_source: aopSource }, async () => (await import("./policy-loader.js")).policyFromText(source, aopSource));
}
