// Parity enforced by a test, not by care (STYLE.md): every doctor check has its module, its test on the
// one tester (test/helpers/check-tester.ts) and its row in the README's doctor table; every catalog tool
// has its handler and schemas, its row in the README's `aop tools` listing and a test in its domain's
// tests. And the other way round: no test, row or doc table names a check or tool that is not there.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DOCTOR_FAMILIES, familyNames } from "../../src/app/doctor-checks.js";
import { toolSurfaceProblems } from "../../src/app/handler-registry.js";
import { loadCatalog, mcpToolName } from "../../src/catalog/catalog.js";
import { REPO_ROOT } from "../helpers/paths.js";

const read = (relative: string) => fs.readFileSync(path.join(REPO_ROOT, relative), "utf8");
const README = read("README.md");
const CHECKS = DOCTOR_FAMILIES.flatMap((f) => f.checks);
const TOOLS = loadCatalog().tools;
const DOMAINS = fs.readdirSync(path.join(REPO_ROOT, "src", "domains")).sort();

/** `DRIFT_004_STALE_RUN_LEASE` → `drift-004-stale-run-lease`: the name of the check's module and of its test. */
const fileName = (id: string) => id.toLowerCase().replace(/_/g, "-");
const existing = (paths: string[]) => paths.filter((p) => fs.existsSync(path.join(REPO_ROOT, p)));

/** Every file under test/ (relative paths), for the tests a tool's domain holds. */
function testFiles(dir = "test"): string[] {
  return fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? testFiles(`${dir}/${e.name}`) : e.name.endsWith(".test.ts") ? [`${dir}/${e.name}`] : []));
}

/** Rows of Markdown tables whose first cell is a check id in backquotes: id → the row's other cells. */
function checkRows(markdown: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of markdown.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const id = /^`((?:DRIFT|CONT|CKPT)_\d{3}_[A-Z0-9_]+)`$/.exec(cells[1] ?? "")?.[1];
    if (line.startsWith("|") && id) rows.set(id, cells.slice(2));
  }
  return rows;
}

describe("doctor families", () => {
  it("doctor.run's `only` enum is the list of families", () => {
    const schema = JSON.parse(read("schemas/input/doctor.run.json")) as { properties: { only: { enum: string[] } } };
    expect(schema.properties.only.enum).toEqual(familyNames());
  });

  it("check ids are unique across families and carry their family's prefix", () => {
    const ids = CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    const prefix: Record<string, string> = { drift: "DRIFT_", continuity: "CONT_", checkpoint: "CKPT_" };
    for (const family of DOCTOR_FAMILIES) for (const check of family.checks) expect(check.id.startsWith(prefix[family.name]!), check.id).toBe(true);
  });
});

/** A `## ` section of the README, to its next one. */
function readmeSection(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  expect(start, `the README's section ${title}`).toBeGreaterThan(-1);
  const end = README.indexOf("\n## ", start + 1);
  return README.slice(start, end === -1 ? undefined : end);
}

describe("every doctor check has its module, its test and its doc row", () => {
  const readmeRows = checkRows(readmeSection("Doctor checks"));

  it.each(CHECKS.map((c) => [c.id, c] as const))("%s", (id, check) => {
    const name = fileName(id);
    expect(existing(DOMAINS.map((d) => `src/domains/${d}/checks/${name}.ts`)), "its module").toHaveLength(1);
    const tests = existing(DOMAINS.map((d) => `test/domains/${d}/checks/${name}.test.ts`));
    expect(tests, "its test").toHaveLength(1);
    expect(read(tests[0]!), "its test runs on the one tester").toMatch(/\btestCheck\(/);
    const row = readmeRows.get(id);
    expect(row, "its row in the README's doctor table").toBeDefined();
    expect(/^[a-z]+/.exec(row![0]!)?.[0], "the row's severity").toBe(check.severity);
  });

  it("no check test, README row or docs/ table row names a check that is not registered", () => {
    const ids = new Set(CHECKS.map((c) => c.id));
    const checkTests = DOMAINS.flatMap((d) => (fs.existsSync(path.join(REPO_ROOT, `test/domains/${d}/checks`)) ? fs.readdirSync(path.join(REPO_ROOT, `test/domains/${d}/checks`)) : []))
      .filter((f) => /^(drift|cont|ckpt)-\d{3}-.*\.test\.ts$/.test(f))
      .map((f) => f.replace(/\.test\.ts$/, ""));
    expect(checkTests.filter((f) => !CHECKS.some((c) => fileName(c.id) === f))).toEqual([]);
    const docs = fs.readdirSync(path.join(REPO_ROOT, "docs")).filter((f) => f.endsWith(".md"));
    const rowIds = [...checkRows(README).keys(), ...docs.flatMap((f) => [...checkRows(read(`docs/${f}`)).keys()])];
    expect(rowIds.filter((id) => !ids.has(id))).toEqual([]);
  });
});

describe("every tool has its handler, schemas, doc row and test", () => {
  /** The `aop tools` listing in the README: `<tool>  <mcp name>  …` lines. */
  const listed = README.split("\n").flatMap((line) => {
    const m = /^([a-z]+\.[a-z_]+) +([a-z]+_[a-z_]+) +/.exec(line);
    return m ? [{ name: m[1]!, mcp: m[2]! }] : [];
  });
  const domainTests = testFiles("test/domains").map((f) => ({ file: f, text: read(f) }));

  it("the catalog, handlers and schemas agree", async () => {
    expect(await toolSurfaceProblems()).toEqual([]);
  });

  it.each(TOOLS.map((t) => [t.name] as const))("%s", (name) => {
    expect(listed.filter((row) => row.name === name), "its row in the README's `aop tools` listing").toEqual([{ name, mcp: mcpToolName(name) }]);
    const named = new RegExp(`["'\`]${name.replace(".", "\\.")}\\b(?![._])`);
    expect(domainTests.filter((t) => named.test(t.text)).map((t) => t.file), "a test under test/domains/ naming it").not.toEqual([]);
  });

  it("the README lists no tool the catalog does not have, and counts them", () => {
    expect(listed.map((row) => row.name).filter((name) => !TOOLS.some((t) => t.name === name))).toEqual([]);
    expect(README).toContain(`${TOOLS.length} tools · M = mutating`);
  });
});
