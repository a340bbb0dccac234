// TypeScript types generated from the tool schemas (scripts/schema-types.mjs → src/catalog/generated/tool-types.d.ts):
// a handler is typed by its tool name, and a handler that breaks its schema does not compile.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { typeOf } from "../../scripts/schema-types.mjs";
import { loadCatalog } from "../../src/catalog/catalog.js";
import type { ToolArgs, ToolHandlers, ToolName, ToolResult } from "../../src/catalog/tool-types.js";
import { REPO_ROOT } from "../helpers/paths.js";

describe("schema → TypeScript", () => {
  it.each([
    [{ type: "string", pattern: "x" }, "output", "string"],
    [{ type: ["integer", "null"] }, "output", "number | null"],
    [{ enum: ["a", "b"] }, "output", '"a" | "b"'],
    [{ type: "array", items: { type: ["string", "null"] } }, "output", "(string | null)[]"],
    [{ type: "object", additionalProperties: false, required: ["a"], properties: { a: { type: "string" }, "b-c": { type: "boolean" } } }, "output", '{ a: string; "b-c"?: boolean }'],
    [{ type: "object", additionalProperties: { type: "number" } }, "output", "{ [key: string]: number }"],
    [{ type: "object" }, "output", "object"],
    [{ type: "object" }, "input", "{ [key: string]: unknown }"],
    [{ type: "object", additionalProperties: false, properties: {} }, "input", "Record<string, never>"],
    [{ oneOf: [{ type: "null" }, { type: "object", properties: { x: { type: "string" } }, required: ["x"], additionalProperties: false }] }, "output", "null | { x: string }"],
    [{ description: "any JSON value" }, "input", "unknown"],
  ] as const)("%j (%s) → %s", (schema, mode, expected) => {
    expect(typeOf(schema, mode)).toBe(expected);
  });

  it("refuses a keyword it does not understand instead of typing it loosely", () => {
    expect(() => typeOf({ type: "object", patternProperties: { x: {} } })).toThrow(/patternProperties/);
  });

  it("the generated declarations name every catalog tool, arguments and result", () => {
    const source = fs.readFileSync(path.join(REPO_ROOT, "src", "catalog", "generated", "tool-types.d.ts"), "utf8");
    for (const tool of loadCatalog().tools) expect(source, tool.name).toContain(`"${tool.name}": `);
  });

  it("handlers are typed by their tool's name", () => {
    expectTypeOf<ToolArgs<"feature.init">>().toEqualTypeOf<{ feature_id: string; title?: string; description?: string; operation_id: string }>();
    expectTypeOf<ToolResult<"checkpoint.reset">>().toEqualTypeOf<{ skill: string; moved_to: string }>();
    expectTypeOf<"checkpoint.init">().toExtend<ToolName>();
    const wrong: ToolHandlers = {
      // @ts-expect-error a result must match the tool's output schema
      "feature.get": async () => ({ feature: null, body: "" }),
      "feature.list": async (args) => {
        // @ts-expect-error arguments are the input schema's: feature.list has no feature_id
        void args.feature_id;
        return { features: [] };
      },
    };
    expect(Object.keys(wrong)).toHaveLength(2);
  });
});
