// Locations the tests need: the repository root, the built CLI and built modules.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const CLI_BIN = path.join(REPO_ROOT, "bin", "aop.js");
export const CONTINUITY_DOCTOR_BIN = path.join(REPO_ROOT, "bin", "continuity-doctor.cjs");
export const CHECKPOINT_BIN = path.join(REPO_ROOT, "bin", "checkpoint.cjs");
export const DIST = path.join(REPO_ROOT, "dist");
export const WORKERS = path.join(REPO_ROOT, "test", "workers");

/** file:// URL of a built module, for workers that import dist code. */
export function distUrl(relative: string): string {
  return pathToFileURL(path.join(DIST, relative)).href;
}
