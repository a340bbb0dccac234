// Bundles with esbuild at build time, from the compiled modules (dist/): one implementation, bundled.
// Two routes start from a bundle (docs/startup.md): the CLI's, one CommonJS file holding every command
// and the packages they use, each command's modules behind its import() (evaluated only when that
// command runs); and the hook's, small, with its rarely needed parts in chunks of their own. Both are
// loaded by bin/load-bundle.cjs, which hands V8 the bytecode cached here after a run on a sample
// (scripts/bundle-samples.mjs, make-code-cache.cjs); another runtime writes its own at its first start.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { builtinModules, chunkEntry, chunkFile, chunkSpecs, chunksPlugin, hostEntry, hostModulesPlugin, modulesPlugin, ourModules, SHARED_MODULES, sharedModules } from "./bundle-plugins.mjs";
import { cliRuns, cliSample, hookRuns, hookSample } from "./bundle-samples.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** What reading a workspace's policy.yaml and aop.yaml takes: the loader, the YAML parser and the policy validators. */
const POLICY_FILE_CHUNKS = ["config/policy-loader.js", "yaml", "catalog/generated/validators/config__policy.user.js", "catalog/generated/validators/config__aop.js", "catalog/generated/validators/config__policy.js"];

/** Paths are relative to the dist folder being built. */
export const BUNDLES = [
  {
    // Every `aop` command, and the `checkpoint` and `continuity-doctor` programs: the bundle holds the
    // program, the command table and commander; each command (with the packages it uses) and each
    // compiled schema validator is a chunk of its own, read and compiled only by a start that runs it.
    // The bundle holds every module whose state is the process's (SHARED_MODULES), so that the
    // commands' chunks share them. One folder under dist/, like the modules it is built from.
    entry: "adapters/cli/main.js",
    out: "cli/cli.bundle.cjs",
    inlinePackages: true,
    chunks: cliChunks,
    holdShared: true,
    codeCache: { entry: "main", sample: cliSample, runs: cliRuns },
  },
  {
    // `aop hook <client>`, after every tool call of the agent and at every session start. A tool event
    // in a workspace without policy.yaml runs from the bundle alone; a policy.yaml brings in the policy's
    // loader, the YAML parser and the validators, a SessionStart or PreCompact the orientation and the
    // doctor's checks, each a chunk with its own code cache.
    entry: "adapters/hooks/hook-main.js",
    out: "hook/hook.bundle.cjs",
    chunks: [
      ...POLICY_FILE_CHUNKS,
      "catalog/generated/validators/config__gates.js",
      { name: "session-context", modules: ["domains/agents/orientation.js", "app/doctor-checks.js", "domains/agents/client-prompts.js"] },
      // An event over the read bound (scanned as it streams), and a Stop's reminder.
      "domains/agents/event-scan.js",
      "domains/agents/stop-reminder.js",
      // The hooks of Codex, Gemini CLI, Cursor and opencode: Claude Code's events never load them.
      { name: "client-hook", modules: ["domains/agents/client-hook.js"] },
    ],
    codeCache: { entry: "handleHookEvent", sample: hookSample, runs: hookRuns },
  },
];

/**
 * The CLI bundle's chunks: every command module, the two other programs, every compiled validator, and
 * the large packages a command loads only on some paths (the YAML parser for a policy.yaml or a
 * features file; the MCP client for `--transport mcp` and the clients' checks; the MCP SDK's HTTP
 * transport for `aop mcp --http`), so that a command's chunk does not carry them.
 */
function cliChunks(dist) {
  const js = (dir) => fs.readdirSync(path.join(dist, dir)).filter((f) => f.endsWith(".js")).sort().map((f) => `${dir}/${f}`);
  // `checkpoint`'s subcommands too (git hooks and agents run `checkpoint next` and `validate` all day),
  // named apart from the top-level commands of the same name.
  const checkpointSubcommands = js("adapters/cli/checkpoint")
    .filter((m) => /\/(validate|status|next|doctor|update|done|init|list|show|reset|resume)\.js$/.test(m))
    .map((m) => ({ name: `checkpoint-${path.basename(m, ".js")}`, modules: [m] }));
  /** A chunk `<prefix>-<domain>` of each domain's `file`, for the domains that have one. */
  const perDomain = (file, prefix) =>
    fs
      .readdirSync(path.join(dist, "domains"))
      .filter((d) => fs.existsSync(path.join(dist, "domains", d, file)))
      .sort()
      .map((d) => ({ name: `${prefix}-${d}`, modules: [`domains/${d}/${file}`] }));
  // Each domain's tool handlers and the doctor's checks too: every command through the kernel reaches
  // them all through the handler registry, and runs one.
  const domainTools = perDomain("tools.js", "tools");
  // Each domain's surface too: the handler registry import()s the surface of the called tool's domain,
  // and a surface import()ed is held whole (every export), so a command's chunk held every domain's.
  const domainSurfaces = perDomain("index.js", "domain");
  return [
    ...js("adapters/cli/commands"),
    ...checkpointSubcommands,
    "adapters/cli/program/checkpoint-program.js",
    "adapters/cli/program/continuity-doctor-program.js",
    ...domainTools,
    ...domainSurfaces,
    "app/doctor-checks.js",
    ...js("catalog/generated/validators"),
    "yaml",
    "app/clients/client-sdk.js",
    // Streamable HTTP (`aop mcp --http`): half of the MCP server's code, which stdio never runs.
    "adapters/mcp/http-sdk.js",
  ];
}

/** Runs the bundle's entry on its sample in a fresh process and writes the V8 code caches of the bundle and its chunks. */
async function makeCodeCache(dist, files, { entry, sample, runs }) {
  const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "aop-code-cache-")));
  try {
    await sample(work, dist);
    // The loader V8's cache is made for (bin/load-bundle.cjs), naming each file by its path once dist/ is swapped in.
    const env = { ...process.env, AOP_BUNDLE_LOADER: "vm", AOP_BUILD_STAGING: dist, AOP_BUILD_DIST: path.join(root, "dist") };
    delete env.NODE_OPTIONS; // V8 refuses a cache made under other flags
    // The sample's own workspace, whatever the shell that builds points at.
    for (const name of ["AOP_ROOT", "AOP_RUN_ID", "AOP_SESSION_ID", "AOP_ACTOR", "AOP_NOW", "CLAUDE_PROJECT_DIR", "NO_COLOR", "FORCE_COLOR"]) delete env[name];
    execFileSync(process.execPath, [path.join(root, "scripts", "make-code-cache.cjs"), JSON.stringify(files), entry, work, JSON.stringify(runs(work))], {
      stdio: ["ignore", "ignore", "inherit"],
      env,
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** One CommonJS bundle at `out` of `entry` ({file} or {contents, resolveDir}); returns esbuild's metafile. */
async function bundle(dist, entry, out, { inlinePackages = false, chunks = [], host, write = true }) {
  const result = await build({
    ...(entry.file ? { entryPoints: [entry.file] } : { stdin: { contents: entry.contents, resolveDir: entry.resolveDir, loader: "js" } }),
    absWorkingDir: root,
    outfile: out,
    write,
    metafile: true,
    bundle: true,
    platform: "node",
    format: "cjs",
    // A package's import.meta.url is the bundle's; each of our modules gets its own (modulesPlugin).
    // Both are made when asked for: a URL costs a start that needs none a few tenths of a millisecond.
    define: { "import.meta.url": "__aopBundle.url" },
    banner: { js: 'const __aopBundle = { get url() { return require("node:url").pathToFileURL(__filename).href; } }, __aopModuleUrl = (file) => require("node:url").pathToFileURL(require("node:path").join(__dirname, file)).href;' },
    target: "node20",
    logLevel: "warning",
    legalComments: "none",
    // Less source to read and decode at every start (names are kept: stack traces still read).
    minifyWhitespace: true,
    minifySyntax: true,
    // An import() becomes a require(): code run through vm.Script has no module loader behind import().
    supported: { "dynamic-import": false },
    plugins: [chunksPlugin({ dist, out, chunks }), ...(host ? [hostModulesPlugin({ dist, out, ...host })] : []), builtinModules(dist), modulesPlugin({ dist, out, inlinePackages })],
  });
  if (write) asciiOnly(out);
  return result.metafile;
}

/**
 * esbuild escapes non-ASCII characters everywhere but in regular expressions: escaped there too, the
 * bundle is ASCII, which bin/load-bundle.cjs reads as Latin-1 — a third of the time UTF-8 decoding takes,
 * and a one-byte string for V8.
 */
function asciiOnly(file) {
  const source = fs.readFileSync(file, "utf8");
  const ascii = source.replace(/[^\t\n\r -~]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (ascii !== source) fs.writeFileSync(file, ascii);
}

/**
 * A bundle with chunks is built around a registry of the SHARED_MODULES it holds (hostEntry), which
 * its chunks use instead of copies. Keeping every export of those modules can bring in more of them,
 * so the set is grown until it holds still.
 */
async function hostBundle(dist, entry, out, { holdShared, ...options }) {
  let shared = holdShared
    ? sharedModules(dist, SHARED_MODULES.map((m) => path.join(dist, m)))
    : sharedModules(dist, ourModules(root, dist, await bundle(dist, { file: entry }, out, { ...options, write: false })));
  for (let round = 0; ; round++) {
    const held = sharedModules(dist, ourModules(root, dist, await bundle(dist, hostEntry(dist, entry, shared), out, { ...options, write: false })));
    if ([...held].every((m) => shared.has(m))) break;
    if (round === 3) throw new Error(`${out}: the modules it holds do not settle`);
    shared = new Set([...shared, ...held]);
  }
  await bundle(dist, hostEntry(dist, entry, shared), out, options);
  return shared;
}

/** Builds every bundle of BUNDLES into `dist` (the folder being built) and their code caches. */
export async function bundleBins(dist) {
  for (const { entry, out: outRel, inlinePackages = false, chunks: chunkList = [], holdShared = false, codeCache } of BUNDLES) {
    const out = path.join(dist, outRel);
    const chunks = typeof chunkList === "function" ? chunkList(dist) : chunkList;
    const options = { inlinePackages, chunks };
    const files = [out];
    if (chunks.length === 0) await bundle(dist, { file: path.join(dist, entry) }, out, options);
    else {
      const shared = await hostBundle(dist, path.join(dist, entry), out, { ...options, holdShared });
      // The chunks are independent of each other: built at once, esbuild's work on one overlaps the
      // plugins' (JavaScript) work on another.
      const chunkFiles = await Promise.all(
        chunkSpecs(chunks).map(async (spec, i) => {
          for (const m of spec.modules) if (shared.has(path.join(dist, m))) throw new Error(`${m} is a chunk of ${outRel} and held by it too: it would run twice`);
          const chunkOut = chunkFile(out, spec);
          const held = ourModules(root, dist, await bundle(dist, chunkEntry(dist, spec), chunkOut, { ...options, chunks: chunks.filter((_, j) => j !== i), host: { hostOut: out, shared } }));
          // A module that keeps the process's state must be the host's: a chunk needing one the host lacks is a build error.
          const own = [...sharedModules(dist, held)];
          if (own.length > 0) throw new Error(`${path.relative(dist, chunkOut)} holds its own copy of ${path.relative(dist, own[0])}, which ${outRel} does not hold`);
          return chunkOut;
        }),
      );
      files.push(...chunkFiles);
    }
    // Code run through vm.Script has no module loader behind import(): a bundle must not need one.
    for (const file of files) if (/\bimport\(/.test(fs.readFileSync(file, "utf8"))) throw new Error(`${path.relative(dist, file)} calls import(), which bin/load-bundle.cjs cannot serve`);
    if (codeCache) await makeCodeCache(dist, files, codeCache);
  }
}

/**
 * The MCP SDK (with zod) is hundreds of small modules; one bundled ES module each for the server and
 * client halves (and commander) keeps the modular build (the library, tests) quick to load too.
 */
export async function bundleVendored(dist) {
  // The server never uses the SDK's default validator (scripts/mcp-server-shims.mjs says why).
  const noAjv = {
    name: "mcp-server-shims",
    setup(b) {
      b.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({ path: path.join(root, "scripts", "mcp-server-shims.mjs") }));
    },
  };
  // Commander requires node:child_process at load for the one thing aop never does (running a
  // subcommand as its own executable); loading it brings in net, dgram and every stream module, a
  // few milliseconds of every start. Required when first used instead.
  const lazyChildProcess = {
    name: "lazy-child-process",
    setup(b) {
      b.onResolve({ filter: /^node:child_process$/ }, (args) => (args.importer.includes(`${path.sep}commander${path.sep}`) ? { path: args.path, namespace: "lazy-builtin" } : undefined));
      b.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => ({ contents: `let m;\nmodule.exports = new Proxy({}, { get: (_, key) => (m ??= require(${JSON.stringify(args.path)}))[key] });\n`, loader: "js" }));
    },
  };
  const plugins = { "adapters/mcp/server-sdk": [noAjv], "adapters/mcp/http-sdk": [noAjv], "adapters/cli/commander-vendor": [lazyChildProcess] };
  for (const entry of ["adapters/mcp/server-sdk", "adapters/mcp/http-sdk", "app/clients/client-sdk", "adapters/cli/commander-vendor"]) {
    await build({
      plugins: plugins[entry] ?? [],
      entryPoints: [path.join(root, "src", `${entry}.ts`)],
      outfile: path.join(dist, `${entry}.js`),
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
