// The build writes a new dist/ beside the one in use and swaps it in by renaming, so that an `aop`
// command (or a hook wired to this checkout) started during a build runs the old build, complete, and
// one started after the swap the new one, complete — never a half-written dist/ (docs/startup.md).
// Linux has no rename that exchanges two folders from Node, so the swap is two renames, microseconds
// apart; a start that falls between them finds no dist/ and looks again (bin/dist-bundle.cjs).
import fs from "node:fs";
import path from "node:path";

const PREFIX = ".dist-";

/** A fresh folder to build into: a sibling of dist/ (bundles find bin/ relative to themselves). */
export function stagingFolder(root) {
  removeAbandoned(root);
  const next = path.join(root, `${PREFIX}build-${process.pid}`);
  fs.rmSync(next, { recursive: true, force: true });
  fs.mkdirSync(next);
  return next;
}

/** Puts `next` in place of `dist` (which may not exist), then removes the build it replaced. */
export function swapIn(next, dist) {
  const root = path.dirname(dist);
  for (let attempt = 0; ; attempt++) {
    const old = path.join(root, `${PREFIX}old-${process.pid}-${attempt}`);
    let moved = false;
    try {
      fs.renameSync(dist, old);
      moved = true;
    } catch (err) {
      if (err.code !== "ENOENT") throw err;
    }
    try {
      fs.renameSync(next, dist);
      if (moved) fs.rmSync(old, { recursive: true, force: true });
      return;
    } catch (err) {
      // Another build swapped its dist/ in between our two renames: set that one aside too.
      if (moved) fs.rmSync(old, { recursive: true, force: true });
      if ((err.code !== "ENOTEMPTY" && err.code !== "EEXIST") || attempt === 5) throw err;
    }
  }
}

/** Staging and set-aside folders of builds that no longer run (killed, or failed before cleaning up). */
function removeAbandoned(root) {
  for (const name of fs.readdirSync(root)) {
    const match = /^\.dist-(?:build|old)-(\d+)/.exec(name);
    if (match && !running(Number(match[1]))) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

function running(pid) {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}
