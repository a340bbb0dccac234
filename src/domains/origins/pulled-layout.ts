// A pulled workspace's folder read through the ordinary layout, with one difference: the public keys that
// verify its attestations and anchors are the local repository's, never keys that came with the pull
// (DESIGN §24; docs/handoff.md). Constructing one registers the folder as a containment root of its own,
// so a link inside it cannot lead a read out of it, not even into the local workspace.
import { WorkspaceLayout } from "../../store/layout.js";

export class PulledLayout extends WorkspaceLayout {
  readonly #localKeysDir: string;

  constructor(folder: string, local: WorkspaceLayout) {
    super(folder);
    this.#localKeysDir = local.keysDir;
  }

  override get keysDir(): string {
    return this.#localKeysDir;
  }
}
