// A pulled workspace's folder read through the ordinary layout, with one difference: agentic/orchestrator/ —
// the policy, the gates and the public keys that verify attestations and anchors — is the local
// repository's, since a pull never carries it and keys that came with one are never trusted (DESIGN §24;
// docs/handoff.md). Constructing one registers the folder as a containment root of its own, so a link
// inside it cannot lead a read out of it, not even into the local workspace.
import path from "node:path";
import { WorkspaceLayout } from "../../store/layout.js";

export class PulledLayout extends WorkspaceLayout {
  readonly #localOrchestratorDir: string;
  readonly #exportDir: string;
  override readonly frozen = true;

  constructor(folder: string, local: WorkspaceLayout, workspaceId: string) {
    super(folder);
    this.#localOrchestratorDir = local.orchestratorDir;
    // Export cursors are this machine's: kept locally, one folder per pulled workspace.
    this.#exportDir = path.join(local.exportDir, "pulled", workspaceId);
  }

  override get exportDir(): string {
    return this.#exportDir;
  }

  override get orchestratorDir(): string {
    return this.#localOrchestratorDir;
  }
}
