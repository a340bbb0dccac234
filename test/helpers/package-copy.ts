// A copy of the built package (what package.json's "files" ships; node_modules linked), changed by
// `alter` — e.g. without a route's bundle, to run the modular build that route falls back to.
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./paths.js";
import { tempDir } from "./tmp.js";

export function packageCopy(alter: (pkg: string) => void): string {
  const pkg = tempDir("aop-pkg-");
  fs.cpSync(path.join(REPO_ROOT, "dist"), path.join(pkg, "dist"), { recursive: true });
  fs.cpSync(path.join(REPO_ROOT, "bin"), path.join(pkg, "bin"), { recursive: true });
  fs.cpSync(path.join(REPO_ROOT, "schemas"), path.join(pkg, "schemas"), { recursive: true });
  fs.copyFileSync(path.join(REPO_ROOT, "package.json"), path.join(pkg, "package.json"));
  fs.copyFileSync(path.join(REPO_ROOT, "catalog.json"), path.join(pkg, "catalog.json"));
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(pkg, "node_modules"));
  alter(pkg);
  return pkg;
}
