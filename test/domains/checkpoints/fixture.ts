// Checkpoint documents and folders for tests: the protocol's full example, a minimal valid file, a workspace.
import fs from "node:fs";
import path from "node:path";
import type { Checkpoint } from "../../../src/domains/checkpoints/checkpoint-types.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";

const EXAMPLE = path.join(path.dirname(new URL(import.meta.url).pathname), "fixtures", "architect.checkpoint.json");

/** The full example file of the protocol (every field used), as a fresh copy. */
export function exampleCheckpoint(): Checkpoint & Record<string, unknown> {
  return JSON.parse(fs.readFileSync(EXAMPLE, "utf8")) as Checkpoint & Record<string, unknown>;
}

export function exampleText(): string {
  return fs.readFileSync(EXAMPLE, "utf8");
}

/** The smallest valid in-progress checkpoint, with overrides (a key set to undefined is removed). */
export function minimalCheckpoint(skill = "builder", overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    protocol_version: "1.0",
    skill,
    project: "shop-api",
    project_dir: "/home/dana/src/shop-api",
    created_at: "2026-03-01T08:00:00.000Z",
    updated_at: "2026-03-01T09:00:00.000Z",
    phase: "build",
    step: "write-handlers",
    status: "in_progress",
    progress_summary: "Handlers half written.",
    progress_table: [{ id: "handlers", label: "Order handlers", status: "in_progress" }],
    context_primer: { key_decisions: [], generated_files: [], user_preferences: [] },
    next_actions: ["Write the refund handler"],
  };
  return withOverrides(doc, overrides);
}

/** A workspace (git marker) with `.checkpoints/<skill>.checkpoint.json` for each entry (objects are JSON-encoded). */
export function checkpointWorkspace(files: Record<string, unknown> = {}, options: { git?: boolean } = {}): string {
  const root = tempWorkspace();
  if (options.git === false) fs.rmSync(path.join(root, ".git"), { recursive: true });
  if (options.git === false) fs.mkdirSync(path.join(root, ".aop"));
  fs.mkdirSync(path.join(root, ".checkpoints"), { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    const file = name.includes(".") && name.endsWith(".json") ? name : `${name}.checkpoint.json`;
    writeFile(root, path.join(".checkpoints", file), typeof content === "string" || content instanceof Uint8Array ? content : JSON.stringify(content, null, 2) + "\n");
  }
  return root;
}

export function checkpointPath(root: string, skill: string): string {
  return path.join(root, ".checkpoints", `${skill}.checkpoint.json`);
}

/**
 * The fixture base of the reference CLI's own scenarios (reference-parity and next tests): a valid 1.1
 * checkpoint, in progress at `build/sprint-1`, one table row, one queued action; a key set to
 * undefined is removed.
 */
export function referenceCheckpoint(skill: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    protocol_version: "1.1", skill, project: "demo", project_dir: "/tmp/demo", created_at: REFERENCE_T0, updated_at: REFERENCE_T0, phase: "build", step: "sprint-1", status: "in_progress",
    progress_summary: "Working on sprint 1. More detail here.",
    progress_table: [{ id: "sprint-1", label: "Sprint 1", status: "in_progress" }],
    context_primer: { key_decisions: [], generated_files: [], user_preferences: [] },
    next_actions: ["Do the next thing"],
  };
  return withOverrides(doc, overrides);
}

export const REFERENCE_T0 = "2026-06-01T12:00:00Z";

/** `doc` with `overrides` applied; a key set to undefined is removed. */
function withOverrides(doc: Record<string, unknown>, overrides: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete doc[key];
    else doc[key] = value;
  }
  return doc;
}
