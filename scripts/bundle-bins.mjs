// Bundles start-up-critical code with esbuild at build time. Bins: the entry module of a bin into one CommonJS file. Loading ~35 small ES
// modules costs more than the continuity doctor's whole work, and Node starts a CommonJS program
// ~15 ms sooner than an ES module one; so its bin is a .cjs entry loading one file built from the
// same compiled modules (dist/): one implementation, bundled. Packages stay external, and so do the
// modules a bundle lists as `lazy`: they load only on the paths that need them (commander for help
// and usage errors), through import(). A bundle with `codeCache` is loaded by bin/load-bundle.cjs,
// which hands V8 the bytecode cached here after a sample run (scripts/make-code-cache.cjs).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const BUNDLES = [
  {
    entry: "dist/adapters/cli/continuity-doctor-bin.js",
    // Same folder as the entry, so `createRequire(import.meta.url)("../…")` paths still resolve.
    out: "dist/adapters/cli/continuity-doctor-bin.bundle.cjs",
    lazy: ["./continuity-doctor-program.js"],
  },
  {
    // `checkpoint validate` (git hooks, CI): the ~25 modules of its commander-free route and the
    // compiled checkpoint schema. The bins load commander's program themselves when this declines.
    entry: "dist/adapters/cli/checkpoint/fast-path.js",
    out: "dist/adapters/cli/checkpoint/fast-path.bundle.cjs",
    lazy: [],
    codeCache: { entry: "tryFastValidate", sample: checkpointSample, runs: [["validate"], ["validate", "--json"], ["validate", "--strict"]] },
  },
  {
    // `aop replay --run-id …` (paging through a run): its route, the pipeline and the replay domain.
    // One folder under dist/, like the modules it is built from, so their `import.meta.url`-relative
    // paths (catalog.json, the policy defaults) still resolve. `import("yaml")` (a user policy) becomes
    // a require(), which a bundle started through vm.Script can serve.
    entry: "dist/adapters/cli/replay-fast-path.js",
    out: "dist/replay-cli/fast-path.bundle.cjs",
    lazy: [],
    requireDynamicImports: true,
    codeCache: {
      entry: "tryFastReplay",
      sample: replaySample,
      runs: [
        ["replay", "--run-id", "sample", "--from-sequence", "900", "--limit", "100", "--json"],
        ["replay", "--run-id", "sample", "--limit", "20"],
        ["replay", "--run-id", "sample", "--tool", "feature.get", "--json"],
      ],
    },
  },
];

/** A workspace with one 1,000-entry timeline whose meta holds only the contract's five fields. */
async function replaySample(work) {
  const replay = path.join(work, ".aop", "runtime", "replay");
  fs.mkdirSync(replay, { recursive: true });
  const lines = [];
  for (let i = 0; i < 1000; i++) {
    lines.push(JSON.stringify({ ts: new Date(Date.UTC(2026, 0, 1) + i).toISOString(), sequence: i, run_id: "sample", session_id: null, actor_type: "orchestrator", feature_id: "f", tool_name: i % 2 ? "feature.get" : "feature.init", mutating: i % 2 === 0, operation_id: null, idempotency_status: "none", request_hash: null, result: i % 7 ? "ok" : "error", error_code: i % 7 ? null : "feature_not_found", latency_ms: 1 }));
  }
  fs.writeFileSync(path.join(replay, "sample.timeline.jsonl"), lines.join("\n") + "\n");
  fs.writeFileSync(path.join(replay, "sample.meta.json"), JSON.stringify({ run_id: "sample", sequence_head: 999, entry_count: 1000, started_at: null, last_entry_at: null }, null, 2));
}

/** A checkpoints folder touching every path of `validate`: valid, warnings, schema and rule errors, broken JSON. */
async function checkpointSample(work) {
  const dir = path.join(work, ".checkpoints");
  fs.mkdirSync(dir);
  const { scaffoldCheckpoint } = await import(pathToFileURL(path.join(root, "dist", "domains", "checkpoints", "write-service.js")).href);
  const doc = (skill, extra = {}) => ({
    ...scaffoldCheckpoint(skill, dir, "2026-03-01T08:00:00.000Z"),
    progress_table: [{ id: "r1", label: "Handlers", status: "in_progress" }, { id: "r2", label: "Tests", status: "not_started" }],
    next_actions: [{ text: "Write the refund handler", done_when: "npm test" }, "Review"],
    ...extra,
  });
  const files = {
    "valid-a": doc("valid-a", { pm_refs: [{ provider: "jira", id: "SHOP-1", role: "source" }], skill_state: { cursor: 3 } }),
    "valid-b": doc("valid-b", { status: "blocked", blockers: [{ id: "b1", description: "Which queue?", blocking: "r2", needs: "user_decision" }] }),
    warnings: doc("warnings", { context_primer: undefined, blockers: [{ id: "b1", description: "x", blocking: ["r9"], needs: "code_fix" }], next_action: "typo" }),
    "schema-errors": doc("schema-errors", { status: "paused", created_at: "yesterday", progress_table: [{ id: "", label: 3 }], next_actions: [] }),
    "rule-errors": doc("other-name", { updated_at: "2026-02-30T00:00:00Z", progress_table: [{ id: "r1", label: "a", status: "complete" }, { id: "r1", label: "b", status: "complete" }] }),
  };
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, `${name}.checkpoint.json`), JSON.stringify(content, null, 2));
  fs.writeFileSync(path.join(dir, "broken.checkpoint.json"), '{\n  "skill": "broken",\n}');
}

/** Runs the bundle's entry on its sample in a fresh process and writes the V8 code cache beside it. */
async function makeCodeCache(out, { entry, sample, runs }) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "aop-code-cache-"));
  try {
    await sample(work);
    const env = { ...process.env };
    delete env.NODE_OPTIONS; // V8 refuses a cache made under other flags
    execFileSync(process.execPath, [path.join(root, "scripts", "make-code-cache.cjs"), path.join(root, out), entry, work, JSON.stringify(runs)], {
      stdio: ["ignore", "ignore", "inherit"],
      env,
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Our modules have no import-time side effects: telling esbuild so keeps what a bundle does not use
 * (the rest of a domain's index.ts surface) out of it.
 */
function sideEffectFree(args) {
  return { path: path.resolve(args.resolveDir, args.path), sideEffects: false };
}

export async function bundleBins() {
  for (const { entry, out, lazy, codeCache, requireDynamicImports } of BUNDLES) {
    await build({
      entryPoints: [path.join(root, entry)],
      outfile: path.join(root, out),
      bundle: true,
      platform: "node",
      format: "cjs",
      // The modules locate files with createRequire(import.meta.url); give them this file's URL.
      define: { "import.meta.url": "__bundleUrl" },
      banner: { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
      target: "node20",
      packages: "external",
      logLevel: "warning",
      legalComments: "none",
      ...(requireDynamicImports ? { supported: { "dynamic-import": false } } : {}),
      plugins: [
        {
          name: "lazy-modules",
          setup(build) {
            build.onResolve({ filter: /.*/ }, (args) => (lazy.includes(args.path) ? { path: args.path, external: true } : undefined));
            build.onResolve({ filter: /^\.\.?\// }, sideEffectFree);
          },
        },
      ],
    });
    if (codeCache) {
      // Code run through vm.Script has no module loader behind import(): such a bundle must not need one.
      if (/\bimport\(/.test(fs.readFileSync(path.join(root, out), "utf8"))) throw new Error(`${out} calls import(), which bin/load-bundle.cjs cannot serve`);
      await makeCodeCache(out, codeCache);
    }
  }
}

/**
 * The MCP SDK (with zod) is hundreds of small modules; one bundled file each for the server and
 * client halves loads several times faster, which is most of `aop mcp`'s start-up.
 */
export async function bundleVendored() {
  // The server never uses the SDK's default validator (scripts/mcp-server-shims.mjs says why).
  const noAjv = {
    name: "mcp-server-shims",
    setup(b) {
      b.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({ path: path.join(root, "scripts", "mcp-server-shims.mjs") }));
    },
  };
  // Same for commander, which every `aop` start loads.
  for (const entry of ["adapters/mcp/server-sdk", "app/clients/client-sdk", "adapters/cli/commander-vendor"]) {
    await build({
      plugins: entry === "adapters/mcp/server-sdk" ? [noAjv] : [],
      entryPoints: [path.join(root, "src", `${entry}.ts`)],
      outfile: path.join(root, "dist", `${entry}.js`),
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      minifyWhitespace: true,
      minifySyntax: true,
      legalComments: "none",
      logLevel: "warning",
      banner: { js: 'import { createRequire as __aopCreateRequire } from "node:module"; const require = __aopCreateRequire(import.meta.url);' },
    });
  }
}

/**
 * `aop hook claude` runs after every tool call of the agent. Its route is bundled as ES modules with
 * code splitting: a tool event loads one file, and what only some events need (the session context,
 * the timeline writer) stays in chunks loaded on demand. The folder sits one level under dist/, like
 * the modules it is built from, so their paths relative to `import.meta.url` still resolve.
 */
export async function bundleHook() {
  await build({
    entryPoints: [path.join(root, "dist", "adapters", "hooks", "hook-main.js")],
    outdir: path.join(root, "dist", "hook"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    legalComments: "none",
    logLevel: "warning",
    banner: { js: 'import { createRequire as __aopCreateRequire } from "node:module"; const require = __aopCreateRequire(import.meta.url);' },
    plugins: [{ name: "side-effect-free", setup: (b) => b.onResolve({ filter: /^\.\.?\// }, sideEffectFree) }],
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundleVendored();
  await bundleBins();
  await bundleHook();
}
