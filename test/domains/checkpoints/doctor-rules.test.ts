import { beforeAll, describe, expect, it } from "vitest";
import type { CheckedCheckpoint } from "../../../src/domains/checkpoints/checkpoint-types.js";
import { diagnoseCheckpoints, type DoctorFacts } from "../../../src/domains/checkpoints/doctor-rules.js";
import { loadCheckpointSchema, validateCheckpointText } from "../../../src/domains/checkpoints/validate-checkpoint.js";
import type { CompiledValidator } from "../../../src/catalog/load-validator.js";
import { minimalCheckpoint } from "./fixture.js";

const NOW = Date.parse("2026-03-01T12:00:00.000Z");
const STALE_DAYS = { in_progress: 7, blocked: 3, complete: 14 };
let schema: CompiledValidator;
beforeAll(async () => {
  schema = await loadCheckpointSchema();
});

function checked(doc: Record<string, unknown>): CheckedCheckpoint {
  const fileName = `${String(doc.skill)}.checkpoint.json`;
  const text = JSON.stringify(doc);
  const outcome = validateCheckpointText(schema, { fileName, text, sizeBytes: text.length, now: NOW });
  return { ...outcome, path: `/p/.checkpoints/${fileName}` };
}

function facts(overrides: Partial<DoctorFacts> = {}): DoctorFacts {
  return { projectDir: "/p", existing: new Set(["/home/dana/src/shop-api"]), projectIsRepoRoot: false, doneInGit: new Set(), ...overrides };
}

function kinds(doc: Record<string, unknown>, f: DoctorFacts = facts()): string[] {
  return diagnoseCheckpoints([checked(doc)], f, NOW, STALE_DAYS).map((x) => x.kind);
}

describe("checkpoint doctor rules", () => {
  it("a valid, fresh checkpoint on its machine has no findings", () => {
    expect(kinds(minimalCheckpoint())).toEqual([]);
  });

  it("validation errors are errors; warnings are warnings; drift is not judged on an invalid file", () => {
    const findings = diagnoseCheckpoints([checked(minimalCheckpoint("b", { status: "nope", progress_summary: "x".repeat(1201), project_dir: "/gone" }))], facts(), NOW, STALE_DAYS);
    expect(findings.map((f) => [f.kind, f.level])).toEqual([
      ["validation_error", "error"],
      ["validation_warning", "warning"],
    ]);
    expect(findings[0]!.message).toBe("b.checkpoint.json: 1 validation error: status must be in_progress, blocked, complete or failed (got the string 'nope')");
  });

  it("project_dir missing on this machine, unless the checkpoints sit in a repository root", () => {
    expect(kinds(minimalCheckpoint("b", { project_dir: "/elsewhere" }))).toEqual(["project_dir_missing"]);
    expect(kinds(minimalCheckpoint("b", { project_dir: "/elsewhere" }), facts({ projectIsRepoRoot: true }))).toEqual([]);
    expect(kinds(minimalCheckpoint("b", { project_dir: "." }), facts({ existing: new Set(["/p"]) }))).toEqual([]);
  });

  it("stale by the thresholds of its status", () => {
    const findings = diagnoseCheckpoints([checked(minimalCheckpoint("b", { status: "blocked", blockers: [{ id: "x", description: "y", needs: "code_fix" }], updated_at: "2026-02-24T09:00:00.000Z", created_at: "2026-02-20T09:00:00.000Z" }))], facts(), NOW, STALE_DAYS);
    expect(findings.map((f) => f.message)).toEqual(["b is blocked and was last updated 5d ago (threshold 3 days)"]);
  });

  it("a listed generated file that does not exist", () => {
    const doc = minimalCheckpoint("b", { context_primer: { generated_files: ["docs/a.md", "docs/b.md"] } });
    const findings = diagnoseCheckpoints([checked(doc)], facts({ existing: new Set(["/home/dana/src/shop-api", "/p/docs/a.md"]) }), NOW, STALE_DAYS);
    expect(findings.map((f) => [f.kind, f.paths[1]])).toEqual([["generated_file_missing", "/p/docs/b.md"]]);
  });

  it("a next action naming a ticket done in a complete table row or in recent git log", () => {
    const doc = minimalCheckpoint("b", {
      progress_table: [{ id: "SHOP-12", label: "Tenancy", status: "complete" }, { id: "r2", label: "Refunds (#40)", status: "in_progress" }],
      next_actions: ["Close out SHOP-12", "Finish refunds #40", "Deploy PR #41"],
    });
    const findings = diagnoseCheckpoints([checked(doc)], facts({ doneInGit: new Set(["#41"]) }), NOW, STALE_DAYS);
    expect(findings.map((f) => f.message)).toEqual([
      "b: next_actions[0] names SHOP-12, which is already done (progress_table row SHOP-12 is complete)",
      "b: next_actions[2] names #41, which is already done (recent git log reports it finished)",
    ]);
  });
});
