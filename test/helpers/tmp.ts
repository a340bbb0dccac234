// Throw-away folders for tests, removed after each test file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { atFileEnd } from "./file-end.js";

export function tempDir(prefix = "aop-test-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  atFileEnd(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A temp folder that is a workspace root (it has a .git marker folder). */
export function tempWorkspace(): string {
  const dir = tempDir("aop-ws-");
  fs.mkdirSync(path.join(dir, ".git"));
  return dir;
}

/** A throw-away copy of the workspace at `from`, links kept as links (where they lead is what a test checks). */
export function copyWorkspace(from: string, prefix = "aop-ws-"): string {
  const root = tempDir(prefix);
  fs.cpSync(from, root, { recursive: true, verbatimSymlinks: true });
  return root;
}

export function writeFile(root: string, relative: string, contents: string | Uint8Array): string {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, contents);
  return file;
}

export function readJson<T = unknown>(file: string): T {
  return JSON.parse(fs.readFileSync(file, "utf8")) as T;
}
