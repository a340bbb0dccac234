// The lint rule that keeps the layout's boundaries: each case names the file and the import it makes.
import path from "node:path";
import { RuleTester } from "eslint";
import { describe, it } from "vitest";
import tseslint from "typescript-eslint";
import { layerBoundaries } from "../../scripts/eslint/layer-boundaries.mjs";
import { REPO_ROOT } from "../helpers/paths.js";

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never } });
const at = (rel: string) => path.join(REPO_ROOT, "src", rel);
const code = (spec: string) => `import { x } from "${spec}";`;

tester.run("aop/layer-boundaries", layerBoundaries, {
  valid: [
    { filename: at("domains/gates/gate-service.ts"), code: code("../evidence/index.js") },
    { filename: at("domains/gates/gate-service.ts"), code: code("./wave-plan.js") },
    { filename: at("domains/doctor/checks/drift-004-stale-run-lease.ts"), code: code("../../runs/index.js") },
    { filename: at("runtime/tool-runtime.ts"), code: code("../catalog/catalog.js") },
    { filename: at("app/create-runtime.ts"), code: code("../domains/runs/index.js") },
    { filename: at("adapters/cli/commands/doctor.ts"), code: code("../../../app/doctor-checks.js") },
    { filename: at("store/lock.ts"), code: code("../core/errors.js") },
    { filename: at("adapters/hooks/hook-main.ts"), code: code("../stdout.js") },
    { filename: at("adapters/cli/commands/hook.ts"), code: code("../../hooks/hook-main.js") },
    { filename: at("core/clock.ts"), code: code("./instants.js") },
    // A path built at run time is checked by its fixed part.
    { filename: at("adapters/cli/main.ts"), code: "const load = (m: string) => import(`../../catalog/generated/validators/${m}.js`);" },
    { filename: at("domains/replay/tools.ts"), code: "const m = await import(`./timeline-${'audit'}.js`);" },
    // createRequire'd modules follow the same rules as imports.
    { filename: at("store/lock.ts"), code: 'import { createRequire } from "node:module"; const req = createRequire(import.meta.url); req("../core/errors.js"); req("yaml");' },
    { filename: at("domains/gates/gate-service.ts"), code: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url); require("../evidence/index.js");' },
    { filename: at("app/create-runtime.ts"), code: "type R = import(\"../domains/runs/index.js\").RunSummary;" },
  ],
  invalid: [
    { filename: at("domains/gates/gate-service.ts"), code: code("../evidence/evidence-files.js"), errors: [{ message: /through its public surface/ }] },
    { filename: at("domains/doctor/checks/drift-006.ts"), code: code("../../replay/timeline-audit.js"), errors: [{ message: /through its public surface/ }] },
    { filename: at("runtime/run-context.ts"), code: code("../domains/runs/index.js"), errors: [{ message: /runtime\/ may not import domains\/runs/ }] },
    { filename: at("runtime/tool-runtime.ts"), code: code("../app/handler-registry.js"), errors: [{ message: /may not import app/ }] },
    { filename: at("domains/doctor/checks/drift-003.ts"), code: code("../../../app/self-check.js"), errors: [{ message: /domains\/doctor\/ may not import app/ }] },
    { filename: at("app/clients/mcp.ts"), code: code("../../adapters/mcp/server.js"), errors: [{ message: /app\/ may not import adapters/ }] },
    { filename: at("adapters/hooks/hook-main.ts"), code: code("../cli/output/style.js"), errors: [{ message: /adapters\/hooks\/ may not import adapters\/cli\// }] },
    { filename: at("adapters/mcp/server.ts"), code: code("../cli/program/version.js"), errors: [{ message: /adapters\/mcp\/ may not import adapters\/cli\// }] },
    { filename: at("store/lock.ts"), code: code("../config/policy-types.js"), errors: [{ message: /store\/ may not import config/ }] },
    { filename: at("core/clock.ts"), code: code("node:fs"), errors: [{ message: /core\/ is pure/ }] },
    { filename: at("core/clock.ts"), code: `export { y } from "../store/layout.js";`, errors: [{ message: /core\/ may not import store/ }] },
    { filename: at("domains/replay/timeline-query.ts"), code: `const m = await import("../features/feature-store.js");`, errors: [{ message: /through its public surface/ }] },
    // Template-literal import(): fixed, and built at run time.
    { filename: at("domains/replay/timeline-query.ts"), code: "const m = await import(`../features/feature-store.js`);", errors: [{ message: /through its public surface/ }] },
    { filename: at("runtime/tool-runtime.ts"), code: "const m = await import(`../app/handler-registry.js`);", errors: [{ message: /runtime\/ may not import app/ }] },
    { filename: at("domains/gates/gate-service.ts"), code: "const m = await import(`../evidence/${name}.js`);", errors: [{ message: /through its public surface/ }] },
    { filename: at("runtime/tool-runtime.ts"), code: "const m = await import(`../domains/${d}/index.js`);", errors: [{ message: /must name the folder it reaches/ }] },
    { filename: at("app/handler-registry.ts"), code: "const m = await import(`../${layer}/x.js`);", errors: [{ message: /must name the folder it reaches/ }] },
    { filename: at("core/ids.ts"), code: "const m = await import(`node:${name}`);", errors: [{ message: /core\/ is pure/ }] },
    // createRequire, require and process.getBuiltinModule load modules too: core/ reaches no node:fs through them.
    {
      filename: at("core/clock.ts"),
      code: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url); const fs = require("node:fs");',
      errors: [{ message: /core\/ is pure: it must not import 'node:module'/ }, { message: /core\/ is pure: it must not import 'node:fs'/ }],
    },
    { filename: at("core/clock.ts"), code: 'import mod from "module"; const load = mod.createRequire(import.meta.url); load("fs");', errors: [{ message: /'module'/ }, { message: /'fs'/ }] },
    { filename: at("core/hash.ts"), code: 'const fs = process.getBuiltinModule("node:fs");', errors: [{ message: /core\/ is pure: it must not import 'node:fs'/ }] },
    { filename: at("core/hash.ts"), code: 'import fs = require("node:fs");', errors: [{ message: /core\/ is pure/ }] },
    { filename: at("core/hash.ts"), code: 'const req = globalThis.req; req(`node:fs`); const late = () => r("node:os"); const r = createRequire(import.meta.url);', errors: [{ message: /'node:os'/ }] },
    { filename: at("store/lock.ts"), code: 'import { createRequire } from "node:module"; const req = createRequire(import.meta.url); req("../config/policy-types.js");', errors: [{ message: /store\/ may not import config/ }] },
    { filename: at("domains/gates/gate-service.ts"), code: 'import { createRequire } from "node:module"; createRequire(import.meta.url)("../evidence/evidence-files.js");', errors: [{ message: /through its public surface/ }] },
    // Type imports follow the rules too.
    { filename: at("domains/gates/gate-service.ts"), code: 'type R = import("../../runtime/tool-runtime.js").ToolRuntime;', errors: [{ message: /domains\/gates\/ may not import runtime/ }] },
    // A domain reaches no layer above it, and other layers reach a domain through its index.ts alone.
    { filename: at("domains/gates/gate-service.ts"), code: code("../../adapters/cli/program/context.js"), errors: [{ message: /domains\/gates\/ may not import adapters/ }] },
    { filename: at("domains/gates/gate-service.ts"), code: code("../../runtime/run-context.js"), errors: [{ message: /domains\/gates\/ may not import runtime/ }] },
    { filename: at("adapters/cli/commands/gates.ts"), code: code("../../../domains/evidence/evidence-files.js"), errors: [{ message: /through its public surface/ }] },
    { filename: at("app/create-runtime.ts"), code: `export * from "../domains/runs/run-store.js";`, errors: [{ message: /through its public surface/ }] },
  ],
});
