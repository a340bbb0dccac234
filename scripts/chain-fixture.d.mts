// Types of scripts/chain-fixture.mjs for the tests of long chains.
import type { WorkspaceLayout } from "../src/store/layout.js";

export declare function writeChainFixture(
  work: string,
  featureId: string,
  entries: number,
  evidenceFor?: (layout: WorkspaceLayout, sha256Of: (text: string) => string, featureId: string, i: number, epoch: number) => unknown,
): Promise<{ layout: WorkspaceLayout; files: string[]; averageBytes: number }>;
