import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { continuityChecks } from "../../../../src/domains/continuity/checks/continuity-family.js";
import { REPO_ROOT } from "../../../helpers/paths.js";

describe("the continuity family", () => {
  it("lists every cont-* check file, in lexical id order, ids unique and CONT_NNN_NAME shaped", () => {
    const files = fs.readdirSync(path.join(REPO_ROOT, "src/domains/continuity/checks")).filter((f) => f.startsWith("cont-"));
    const ids = continuityChecks.map((c) => c.id);
    expect(ids).toHaveLength(files.length);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^CONT_\d{3}_[A-Z_]+$/);
    // each file is named after its id: cont-003-section-missing.ts ↔ CONT_003_SECTION_MISSING
    expect(files.map((f) => f.replace(/\.ts$/, "").toUpperCase().replace(/-/g, "_")).sort()).toEqual(ids);
  });

  it("has the severities of docs/continuity.md and a title and remediation each", () => {
    expect(Object.fromEntries(continuityChecks.map((c) => [c.id, c.severity]))).toEqual({
      CONT_001_STATE_FILE_MISSING: "critical",
      CONT_002_STATE_FILE_STALE: "warning",
      CONT_003_SECTION_MISSING: "warning",
      CONT_004_PLACEHOLDER_TEXT: "info",
      CONT_005_UNSURFACED_RESULTS: "warning",
      CONT_006_ARCHIVE_OBJECTIVE_CHANGED: "info",
      CONT_007_OBJECTIVE_NOT_IN_TASKS: "info",
    });
    for (const c of continuityChecks) {
      expect(c.title.length).toBeGreaterThan(10);
      expect(c.remediation.length).toBeGreaterThan(30);
    }
  });
});
