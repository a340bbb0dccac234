import AjvModule from "ajv";
import { describe, expect, it } from "vitest";
import { portableSchema } from "../../../src/adapters/mcp/portable-schema.js";

const Ajv = AjvModule.default;

/** Every value in `samples` is accepted by `a` exactly when it is accepted by `b`. */
function sameVerdicts(a: object, b: object, samples: unknown[]): void {
  const ajv = new Ajv({ strict: false });
  const [va, vb] = [ajv.compile(a), ajv.compile(b)];
  for (const s of samples) expect([s, vb(s)]).toEqual([s, va(s)]);
}

const SAMPLES = [null, "", "abc", "ABC", 0, 3, -1, 2.5, true, {}, { a: 1 }, { a: "x" }, [], [1], ["x", null]];

describe("portableSchema", () => {
  it("spells a nullable type as anyOf branches, constraints in the typed branch, annotations outside", () => {
    expect(portableSchema({ type: ["string", "null"], pattern: "^a", description: "d" })).toEqual({ description: "d", anyOf: [{ type: "string", pattern: "^a" }, { type: "null" }] });
  });

  it("rewrites at every depth: properties, items, anyOf/oneOf branches, $defs", () => {
    const out = portableSchema({
      type: "object",
      properties: { a: { type: ["integer", "null"] }, b: { type: "array", items: { type: ["object", "null"], properties: { c: { type: ["string", "null"] } } } } },
      oneOf: [{ properties: { d: { type: ["number", "null"] } } }],
      $defs: { e: { type: ["boolean", "null"] } },
    });
    expect(JSON.stringify(out)).not.toMatch(/"type":\[/);
  });

  it("accepts exactly what the original accepts, with constraints and keywords that apply to null too", () => {
    const cases: object[] = [
      { type: ["string", "null"], pattern: "^a", maxLength: 2 },
      { type: ["integer", "null"], minimum: 0 },
      { type: ["string", "null"], enum: ["abc", null] },
      { type: ["string", "null"], enum: ["abc"] },
      { type: ["object", "null"], required: ["a"], properties: { a: { type: ["integer", "null"] } } },
      { type: ["string", "number", "boolean", "object", "array", "null"] },
      { type: ["array", "null"], items: { type: ["string", "null"] } },
      { type: ["string", "null"], not: { const: null } },
    ];
    for (const schema of cases) sameVerdicts(schema, portableSchema(schema) as object, SAMPLES);
  });

  it("leaves a schema without type arrays as it was", () => {
    const schema = { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false };
    expect(portableSchema(schema)).toEqual(schema);
  });

  it("compiles under ajv strict", () => {
    const out = portableSchema({ type: "object", properties: { a: { type: ["string", "null"], minLength: 1, description: "x" } }, additionalProperties: false }) as object;
    expect(() => new Ajv({ strict: true }).compile(out)).not.toThrow();
  });
});
