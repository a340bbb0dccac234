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
    { filename: at("core/clock.ts"), code: code("./instants.js") },
  ],
  invalid: [
    { filename: at("domains/gates/gate-service.ts"), code: code("../evidence/evidence-files.js"), errors: [{ message: /through its public surface/ }] },
    { filename: at("domains/doctor/checks/drift-006.ts"), code: code("../../replay/timeline-audit.js"), errors: [{ message: /through its public surface/ }] },
    { filename: at("runtime/run-context.ts"), code: code("../domains/runs/index.js"), errors: [{ message: /runtime\/ may not import domains\/runs/ }] },
    { filename: at("runtime/tool-runtime.ts"), code: code("../app/handler-registry.js"), errors: [{ message: /may not import app/ }] },
    { filename: at("domains/doctor/checks/drift-003.ts"), code: code("../../../app/self-check.js"), errors: [{ message: /domains\/doctor\/ may not import app/ }] },
    { filename: at("app/clients/mcp.ts"), code: code("../../adapters/mcp/server.js"), errors: [{ message: /app\/ may not import adapters/ }] },
    { filename: at("store/lock.ts"), code: code("../config/policy-types.js"), errors: [{ message: /store\/ may not import config/ }] },
    { filename: at("core/clock.ts"), code: code("node:fs"), errors: [{ message: /core\/ is pure/ }] },
    { filename: at("core/clock.ts"), code: `export { y } from "../store/layout.js";`, errors: [{ message: /core\/ may not import store/ }] },
    { filename: at("domains/replay/timeline-query.ts"), code: `const m = await import("../features/feature-store.js");`, errors: [{ message: /through its public surface/ }] },
  ],
});
