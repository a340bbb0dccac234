import { describe, expect, it } from "vitest";
import { toolSurfaceProblems } from "../../src/app/handler-registry.js";
import { catalogProblems, rbacProblems } from "../../src/catalog/catalog-check.js";
import { loadCatalog } from "../../src/catalog/catalog.js";
import { policyDefaults } from "../../src/config/policy-loader.js";
import type { CatalogEntry } from "../../src/catalog/tool-types.js";

const entry = (over: Partial<CatalogEntry>): CatalogEntry => ({
  name: "demo.tool", title: "t", description: "d", input_schema_ref: "schemas/input/feature.get.json", output_schema_ref: "schemas/output/feature.get.json",
  supported_roles: ["orchestrator"], mutating: false, requires_operation_id: false, ...over,
});

describe("catalog self-check", () => {
  it("the shipped catalog, handlers and schemas agree", async () => {
    expect(await toolSurfaceProblems()).toEqual([]);
  });

  it("the default policy grants only catalog tools to roles the catalog supports", () => {
    expect(rbacProblems(policyDefaults(), loadCatalog().tools)).toEqual([]);
  });

  const facts = (tools: CatalogEntry[], handlerNames: string[]) => ({
    tools,
    handlerNames,
    validatorNames: new Set(["input/feature.get", "output/feature.get"]),
    inputSchemaOf: () => ({ properties: {}, required: [] }),
  });

  it("reports an entry without a handler and a handler without an entry", () => {
    expect(catalogProblems(facts([entry({})], ["other.tool"]))).toEqual(["demo.tool: no handler", "other.tool: handler has no catalog entry"]);
  });

  it("reports a missing schema", () => {
    expect(catalogProblems(facts([entry({ output_schema_ref: "schemas/output/nope.json" })], ["demo.tool"]))).toEqual(["demo.tool: schema schemas/output/nope.json is missing or did not compile"]);
  });

  it("reports a mutating tool that does not require operation_id", () => {
    const problems = catalogProblems(facts([entry({ mutating: true, requires_operation_id: false })], ["demo.tool"]));
    expect(problems).toContain("demo.tool: mutating tools must require operation_id");
  });

  it("reports MCP name collisions", () => {
    const problems = catalogProblems(facts([entry({ name: "a.b_c" }), entry({ name: "a_b.c" })], ["a.b_c", "a_b.c"]));
    expect(problems).toContain("a_b.c: MCP name a_b_c collides with another tool");
  });

  it("reports RBAC grants of unknown tools and unsupported roles", () => {
    const policy = policyDefaults();
    policy.rbac = { qa: ["ghost.tool", "run.start"] };
    expect(rbacProblems(policy, loadCatalog().tools).map((p) => `${p.path} ${p.message}`)).toEqual([
      "rbac.qa[0] names unknown tool 'ghost.tool'",
      "rbac.qa[1] grants run.start, which role 'qa' cannot call (supported: orchestrator, system)",
    ]);
  });
});
