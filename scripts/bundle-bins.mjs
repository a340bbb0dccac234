// Bundles start-up-critical code with esbuild at build time: the entry module of a route into one
// CommonJS file, built from the same compiled modules (dist/): one implementation, bundled. Loading a
// few dozen small ES modules costs more than a short command's work, and Node starts a CommonJS
// program sooner than an ES module one. Packages stay external unless a bundle inlines them; `lazy`
// modules stay import()s of the modular build; `chunks` become bundles of their own, loaded when first
// imported. A bundle with `codeCache` (and its chunks) is loaded by bin/load-bundle.cjs, which hands V8
// the bytecode cached here after a run on a sample (scripts/bundle-samples.mjs, make-code-cache.cjs).
// Which route takes which bundle, and why: docs/startup.md.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { builtinModules, chunkEntry, chunkFile, chunkSpecs, chunksPlugin, hostEntry, hostModulesPlugin, modulesPlugin, ourModules, sharedModules } from "./bundle-plugins.mjs";
import { checkpointRuns, checkpointSample, doctorRuns, doctorSample, hookRuns, hookSample, mcpInput, mcpRuns, mcpSample, replayRuns, replaySample, verifyRuns, verifySample } from "./bundle-samples.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** What reading a workspace's policy.yaml takes: the YAML parser and the two policy validators. */
const POLICY_FILE_CHUNKS = ["yaml", "dist/catalog/generated/validators/config__policy.user.js", "dist/catalog/generated/validators/config__policy.js"];

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
    codeCache: { entry: "tryFastValidate", sample: checkpointSample, runs: checkpointRuns },
  },
  {
    // `aop --help` (and `-h`, `help`, a bare `aop`): commander and the program with every command as
    // a help stub; no command module (the route names none). Beside main.js, like the modules it is
    // built from, so the package.json that version.ts finds relative to it is the same.
    entry: "dist/adapters/cli/help-fast-path.js",
    out: "dist/adapters/cli/help-fast-path.bundle.cjs",
    requireDynamicImports: true,
    codeCache: { entry: "tryFastHelp", sample: async () => {}, runs: () => [[["--help"]]] },
  },
  {
    // `aop replay --run-id …` (paging through a run): its route, the pipeline and the replay domain.
    // One folder under dist/, like the modules it is built from, so their `import.meta.url`-relative
    // paths (catalog.json, the policy defaults) still resolve. A workspace's policy.yaml brings in the
    // YAML parser and the policy's validators, chunks of their own.
    entry: "dist/adapters/cli/replay-fast-path.js",
    out: "dist/replay-cli/fast-path.bundle.cjs",
    requireDynamicImports: true,
    chunks: POLICY_FILE_CHUNKS,
    codeCache: { entry: "tryFastReplay", sample: replaySample, runs: replayRuns },
  },
  {
    // `aop evidence verify` (CI, on every merge): its route, the pipeline, the evidence and attest
    // domains, evidence.verify_chain the only tool.
    entry: "dist/adapters/cli/evidence-verify-fast-path.js",
    out: "dist/evidence-cli/verify.bundle.cjs",
    requireDynamicImports: true,
    chunks: POLICY_FILE_CHUNKS,
    codeCache: { entry: "tryFastVerify", sample: verifySample, runs: verifyRuns },
  },
  {
    // `aop doctor` (CI, session starts): the route, the runtime and every domain (the doctor runs them
    // all: its checks, and DRIFT_003's self-check loads every tool handler), the YAML parser inlined.
    // One folder under dist/, like the modules it is built from, for their `import.meta.url` paths.
    entry: "dist/adapters/cli/doctor-fast-path.js",
    out: "dist/doctor-cli/fast-path.bundle.cjs",
    requireDynamicImports: true,
    inline: ["yaml"],
    codeCache: { entry: "tryFastDoctor", sample: doctorSample, runs: doctorRuns },
  },
  {
    // `aop mcp` (every agent start): the route, the runtime, the MCP server with the SDK inlined (its
    // zod schemas are most of what a start evaluates). Each domain whose tools a call needs is a chunk,
    // loaded by its first call or by the catalog self-check after the handshake.
    entry: "dist/adapters/cli/mcp-fast-path.js",
    out: "dist/mcp-cli/fast-path.bundle.cjs",
    requireDynamicImports: true,
    chunks: [
      ...POLICY_FILE_CHUNKS,
      "dist/catalog/generated/validators/config__gates.js",
      ...["features", "checkpoints", "gates", "evidence", "attest", "doctor", "agents"].map((d) => `dist/domains/${d}/index.js`),
      "dist/app/doctor-checks.js",
    ],
    codeCache: { entry: "tryFastMcp", sample: mcpSample, runs: mcpRuns, input: mcpInput },
  },
  {
    // `aop hook claude`, after every tool call of the agent and at every session start. A tool event
    // in a workspace without policy.yaml runs from the bundle alone; a policy.yaml brings in the YAML
    // parser and the policy's validators, a SessionStart or PreCompact the orientation and the doctor's
    // checks, each a chunk with its own code cache.
    entry: "dist/adapters/hooks/hook-main.js",
    out: "dist/hook/hook.bundle.cjs",
    requireDynamicImports: true,
    chunks: [
      ...POLICY_FILE_CHUNKS,
      "dist/catalog/generated/validators/config__gates.js",
      { name: "session-context", modules: ["dist/domains/agents/orientation.js", "dist/app/doctor-checks.js"] },
    ],
    codeCache: { entry: "handleHookEvent", sample: hookSample, runs: hookRuns },
  },
];

/** Runs the bundle's entry on its sample in a fresh process and writes the V8 code caches of the bundle and its chunks. */
async function makeCodeCache(files, { entry, sample, runs, input }) {
  const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "aop-code-cache-")));
  try {
    await sample(work);
    const env = { ...process.env };
    delete env.NODE_OPTIONS; // V8 refuses a cache made under other flags
    // The sample's own workspace, whatever the shell that builds points at.
    for (const name of ["AOP_ROOT", "AOP_RUN_ID", "AOP_SESSION_ID", "AOP_ACTOR", "AOP_NOW", "CLAUDE_PROJECT_DIR"]) delete env[name];
    execFileSync(process.execPath, [path.join(root, "scripts", "make-code-cache.cjs"), JSON.stringify(files), entry, work, JSON.stringify(runs(work))], {
      stdio: [input ? "pipe" : "ignore", "ignore", "inherit"],
      ...(input ? { input: input(work) } : {}),
      env,
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** One CommonJS bundle at `out` of `entry` ({file} or {contents, resolveDir}); returns esbuild's metafile. */
async function bundle(entry, out, { lazy, inline, chunks = [], requireDynamicImports, host, write = true }) {
  const result = await build({
    ...(entry.file ? { entryPoints: [entry.file] } : { stdin: { contents: entry.contents, resolveDir: entry.resolveDir, loader: "js" } }),
    absWorkingDir: root,
    outfile: path.join(root, out),
    write,
    metafile: true,
    bundle: true,
    platform: "node",
    format: "cjs",
    // The modules locate files with createRequire(import.meta.url); give them this file's URL.
    define: { "import.meta.url": "__bundleUrl" },
    banner: { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
    target: "node20",
    logLevel: "warning",
    legalComments: "none",
    // Less source to read and decode at every start (names are kept: stack traces still read).
    minifyWhitespace: true,
    minifySyntax: true,
    ...(requireDynamicImports ? { supported: { "dynamic-import": false } } : {}),
    plugins: [chunksPlugin({ root, out, chunks }), ...(host ? [hostModulesPlugin({ root, out, ...host })] : []), builtinModules, modulesPlugin({ lazy, inline })],
  });
  return result.metafile;
}

/**
 * A bundle with chunks is built around a registry of the SHARED_MODULES it holds (hostEntry), which
 * its chunks use instead of copies. Keeping every export of those modules can bring in more of them,
 * so the set is grown until it holds still.
 */
async function hostBundle(entry, out, options) {
  let shared = sharedModules(root, ourModules(root, await bundle({ file: entry }, out, { ...options, write: false })));
  for (let round = 0; ; round++) {
    const held = sharedModules(root, ourModules(root, await bundle(hostEntry(root, entry, shared), out, { ...options, write: false })));
    if ([...held].every((m) => shared.has(m))) break;
    if (round === 3) throw new Error(`${out}: the modules it holds do not settle`);
    shared = new Set([...shared, ...held]);
  }
  await bundle(hostEntry(root, entry, shared), out, options);
  return shared;
}

export async function bundleBins() {
  for (const { entry, out, lazy = [], inline = [], chunks = [], codeCache, requireDynamicImports } of BUNDLES) {
    const options = { lazy, inline, chunks, requireDynamicImports };
    const files = [out];
    if (chunks.length === 0) await bundle({ file: path.join(root, entry) }, out, options);
    else {
      const shared = await hostBundle(path.join(root, entry), out, options);
      for (const [i, spec] of chunkSpecs(chunks).entries()) {
        for (const m of spec.modules) if (shared.has(path.join(root, m))) throw new Error(`${m} is a chunk of ${out} and held by it too: it would run twice`);
        const chunkOut = path.relative(root, chunkFile(path.join(root, out), spec));
        const held = ourModules(root, await bundle(chunkEntry(root, spec), chunkOut, { ...options, chunks: chunks.filter((_, j) => j !== i), host: { hostOut: out, shared } }));
        // A module that keeps the process's state must be the host's: a chunk needing one the host lacks is a build error.
        const own = [...sharedModules(root, held)];
        if (own.length > 0) throw new Error(`${chunkOut} holds its own copy of ${path.relative(root, own[0])}, which ${out} does not hold`);
        files.push(chunkOut);
      }
    }
    if (codeCache) {
      // Code run through vm.Script has no module loader behind import(): such a bundle must not need one.
      for (const file of files) if (/\bimport\(/.test(fs.readFileSync(path.join(root, file), "utf8"))) throw new Error(`${file} calls import(), which bin/load-bundle.cjs cannot serve`);
      await makeCodeCache(files.map((f) => path.join(root, f)), codeCache);
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundleVendored();
  await bundleBins();
}
