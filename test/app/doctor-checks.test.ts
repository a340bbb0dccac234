// The doctor's families are listed once (src/app/doctor-checks.ts); the doctor.run schema, which cannot
// import them, must name exactly those families.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DOCTOR_FAMILIES, familyNames } from "../../src/app/doctor-checks.js";
import { REPO_ROOT } from "../helpers/paths.js";

describe("doctor families", () => {
  it("doctor.run's `only` enum is the list of families", () => {
    const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schemas", "input", "doctor.run.json"), "utf8")) as { properties: { only: { enum: string[] } } };
    expect(schema.properties.only.enum).toEqual(familyNames());
  });

  it("check ids are unique across families and carry their family's prefix", () => {
    const ids = DOCTOR_FAMILIES.flatMap((f) => f.checks.map((c) => c.id));
    expect(new Set(ids).size).toBe(ids.length);
    const prefix: Record<string, string> = { drift: "DRIFT_", continuity: "CONT_", checkpoint: "CKPT_" };
    for (const family of DOCTOR_FAMILIES) for (const check of family.checks) expect(check.id.startsWith(prefix[family.name]!), check.id).toBe(true);
  });
});
