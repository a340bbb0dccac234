// Where a private key may live: never inside the workspace or any git work tree (DESIGN §23), where one
// `git add -A` commits it and whoever reads the repository can forge evidence. Checked before a key is
// written or adopted by `aop keys init`, on the path with its links resolved.
import fs from "node:fs";
import path from "node:path";
import { AopError } from "../../core/errors.js";

/** Whether `child` is `parent` or lies below it (both absolute and normalised). */
export function isWithin(parent: string, child: string): boolean {
  if (child === parent) return true;
  return child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
}

/** The nearest folder from `dir` up to the file-system root that holds `.git` (per `hasGit`), or null. */
export function nearestWorkTree(dir: string, hasGit: (folder: string) => boolean): string | null {
  for (let folder = dir; ; folder = path.dirname(folder)) {
    if (hasGit(folder)) return folder;
    if (path.dirname(folder) === folder) return null;
  }
}

/**
 * `file` with the links of its existing part resolved: the real path of its longest existing ancestor,
 * then the rest as written (a link there could send a write into a work tree that the path hides).
 */
export function resolveExistingPart(file: string): string {
  const rest: string[] = [];
  let existing = path.resolve(file);
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(existing), ...rest.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return path.join(existing, ...rest.reverse());
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

function hasGitEntry(folder: string): boolean {
  try {
    fs.lstatSync(path.join(folder, ".git")); // a folder, or the file a linked worktree or submodule has
    return true;
  } catch {
    return false;
  }
}

export interface KeyPlace {
  /** The private key file. */
  file: string;
  /** Who chose it, for the message: AOP_SIGNING_KEY, or the default keys folder. */
  explicit: boolean;
  /** The default keys folder ($XDG_CONFIG_HOME/aop/keys), suggested instead. */
  defaultDir: string;
}

function placeHint(place: KeyPlace, exists: boolean): string {
  const elsewhere = place.explicit ? `to the default ${place.defaultDir}/ (then unset AOP_SIGNING_KEY)` : "to a folder outside every git work tree (set XDG_CONFIG_HOME or AOP_SIGNING_KEY to it)";
  if (exists) {
    return `move the key ${elsewhere}, mode 0600, and check it was never committed (\`git log --all -- ${place.file}\`); if it was, treat it as leaked: make another with \`aop keys init --new\` and delete the old public key`;
  }
  if (!place.explicit) return "set XDG_CONFIG_HOME (or AOP_SIGNING_KEY) to a folder outside every git work tree, then run `aop keys init` again";
  return `unset AOP_SIGNING_KEY to use the default ${place.defaultDir}/, or point it at a file outside every git work tree; then run \`aop keys init\` again`;
}

/** Refuses (signing_key_misplaced) a private key path inside `workspaceRoot` or any git work tree. */
export function assertKeyOutsideWorkTrees(place: KeyPlace, workspaceRoot: string): void {
  const real = resolveExistingPart(place.file);
  const root = resolveExistingPart(workspaceRoot);
  const inWorkspace = isWithin(root, real);
  const tree = inWorkspace ? null : nearestWorkTree(path.dirname(real), hasGitEntry);
  if (!inWorkspace && tree === null) return;
  const inside = inWorkspace ? `the workspace ${root}` : `the git work tree ${tree}`;
  const really = (named: string, resolved: string) => (resolved === path.resolve(named) ? named : `${named} (really ${resolved})`);
  const what = place.explicit ? `AOP_SIGNING_KEY names ${really(place.file, real)},` : `the keys folder ${really(path.dirname(place.file), path.dirname(real))} is`;
  throw new AopError("signing_key_misplaced", `${what} inside ${inside}: a private key there is one \`git add\` away from being committed, and whoever reads it can sign evidence as you. Nothing was written`, {
    details: { key_file: place.file, resolved: real, ...(inWorkspace ? { workspace: root } : { work_tree: tree }) },
    hint: placeHint(place, fs.existsSync(real)),
  });
}
