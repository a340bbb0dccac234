// A Node ≥ 22 binary for tools that need one (the official conformance suite, the Inspector 2.x): this
// Node if it is one, else a binary from the registry's `node` package in the Node matrix's cache
// (scripts/node-binary.mjs), installed on first use (docs/mcp.md).
import { cachedNode, nodeOf } from "../../scripts/node-binary.mjs";

/** A Node ≥ 22 binary, or why there is none. */
export function node22(): { bin: string } | { why: string } {
  if (Number(process.versions.node.split(".")[0]) >= 22) return { bin: process.execPath };
  for (const line of ["22", "24", "26"]) {
    const bin = cachedNode(line);
    if (bin) return { bin };
  }
  try {
    return { bin: nodeOf("22") };
  } catch (err) {
    return { why: `no Node >= 22 could be obtained from the npm registry's node package: ${err instanceof Error ? err.message : String(err)}` };
  }
}
