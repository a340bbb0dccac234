// ESLint rule `aop/layer-boundaries`: the import rules of the layout (docs/architecture.md).
// Each source folder names the folders it may import; a domain is imported only through its index.ts. Every way
// of loading a module counts: import/export, import() (a template literal by its fixed part), import = require,
// import("…") types, require, createRequire(…)(…) and process.getBuiltinModule(…).
import path from "node:path";

/** Layer of a file path relative to src/ (`domains/<d>` for a domain). */
function layerOf(rel) {
  const [top, second] = rel.split("/");
  if (top === "domains" && second) return `domains/${second}`;
  if (!rel.includes("/")) return "(root)";
  return top;
}

// Which layers each layer may import. Domains may import other domains (through index.ts only).
const ALLOWED = {
  core: ["core"],
  store: ["core", "store"],
  config: ["core", "store", "config", "catalog"],
  catalog: ["core", "store", "config", "catalog"],
  runtime: ["core", "store", "config", "catalog", "runtime"],
  domains: ["core", "store", "config", "catalog", "domains"],
  app: ["core", "store", "config", "catalog", "runtime", "domains", "app"],
  adapters: ["core", "store", "config", "catalog", "runtime", "domains", "app", "adapters"],
  "(root)": ["core", "store", "config", "catalog", "runtime", "domains", "app", "adapters"],
};

// Node modules that do I/O (or, like `module`'s createRequire, load whatever they are told): core is pure.
const IO_MODULES = /^(node:)?(fs|fs\/promises|child_process|net|http|https|http2|tls|dns|dgram|cluster|worker_threads|readline|os|module)$/;

/** The module a specifier names: a string literal, or a template literal's fixed text ({computed} when it has expressions). */
function specOf(node) {
  if (!node) return undefined;
  if (node.type === "Literal" && typeof node.value === "string") return { spec: node.value, computed: false };
  if (node.type === "TemplateLiteral") {
    if (node.expressions.length === 0) return { spec: node.quasis[0].value.cooked, computed: false };
    return { spec: node.quasis[0].value.cooked, computed: true };
  }
  return undefined;
}

/** `createRequire(…)` or `module.createRequire(…)`. */
const isCreateRequire = (node) =>
  node?.type === "CallExpression" &&
  ((node.callee.type === "Identifier" && node.callee.name === "createRequire") ||
    (node.callee.type === "MemberExpression" && node.callee.property.type === "Identifier" && node.callee.property.name === "createRequire"));

export const layerBoundaries = {
  meta: { type: "problem", docs: { description: "enforce the layer and domain import boundaries" }, schema: [], messages: {} },
  create(context) {
    const file = context.filename ?? context.getFilename();
    const srcRoot = path.join(context.cwd ?? process.cwd(), "src");
    const relFile = path.relative(srcRoot, file).split(path.sep).join("/");
    if (relFile.startsWith("..") || relFile.startsWith("catalog/generated/")) return {};
    const from = layerOf(relFile);
    const fromKind = from.startsWith("domains/") ? "domains" : from;
    function check(node, spec, computed = false) {
      if (typeof spec !== "string") return;
      if (computed) return checkComputed(node, spec);
      if (fromKind === "core" && IO_MODULES.test(spec)) {
        context.report({ node, message: `core/ is pure: it must not import '${spec}' (I/O belongs in store/ or a service)` });
        return;
      }
      if (!spec.startsWith(".")) return;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(relFile), spec));
      if (target.startsWith("..")) return;
      const to = layerOf(target);
      const toKind = to.startsWith("domains/") ? "domains" : to;
      if (!(ALLOWED[fromKind] ?? []).includes(toKind)) {
        context.report({ node, message: `${from}/ may not import ${to}/ ('${spec}'): imports run adapters → app → runtime | domains → catalog | config → store → core` });
        return;
      }
      // The CLI starts the hook and the MCP server; they never load the CLI (the hook's bundle stays small).
      // What they share lives in adapters/ itself.
      const adapterFrom = relFile.split("/")[1];
      if (fromKind === "adapters" && (adapterFrom === "hooks" || adapterFrom === "mcp") && target.startsWith("adapters/cli/")) {
        context.report({ node, message: `adapters/${adapterFrom}/ may not import adapters/cli/ ('${spec}'): the CLI starts it; what they share lives in adapters/ or a domain` });
        return;
      }
      if (toKind === "domains" && to !== from && target !== `${to}/index.js`) {
        context.report({ node, message: `import ${to} through its public surface '${to}/index.js', not '${spec}'` });
      }
    }
    // A path built at run time (`import(\`../x/${name}.js\`)`) is checked by its fixed head, which must
    // name the folder it reaches: a layer, and for a domain the domain itself.
    function checkComputed(node, head) {
      if (!head.startsWith(".")) {
        if (fromKind === "core") context.report({ node, message: `core/ is pure: it must not load a module named at run time ('${head}…')` });
        return;
      }
      const dir = head.slice(0, head.lastIndexOf("/") + 1);
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(relFile), dir)).replace(/\/+$/, "");
      if (target.startsWith("..")) return;
      const [top, second] = target.split("/");
      if (target === "." || target === "" || (top === "domains" && !second)) {
        context.report({ node, message: `an import path built at run time must name the folder it reaches in its fixed part ('${head}…')` });
        return;
      }
      check(node, `${dir}…`); // a file named at run time: never another domain's index.js
    }
    const requires = new Set(); // names bound to createRequire(…)
    const requireCalls = []; // calls that may load a module, checked once the file's bindings are known
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => {
        const s = specOf(node.source);
        if (s) check(node, s.spec, s.computed);
        else if (fromKind === "core") context.report({ node, message: "core/ is pure: it must not load a module named at run time" });
      },
      // import fs = require("node:fs")
      TSImportEqualsDeclaration: (node) => node.moduleReference.type === "TSExternalModuleReference" && check(node, specOf(node.moduleReference.expression)?.spec),
      // type X = import("../app/x.js").X
      TSImportType: (node) => check(node, (node.source ?? node.argument?.literal)?.value),
      VariableDeclarator: (node) => {
        if (node.id.type === "Identifier" && isCreateRequire(node.init)) requires.add(node.id.name);
      },
      CallExpression: (node) => {
        const callee = node.callee;
        // createRequire(…)(…), require(…), process.getBuiltinModule(…)
        const builtin = callee.type === "MemberExpression" && callee.object.type === "Identifier" && callee.object.name === "process" && callee.property.type === "Identifier" && callee.property.name === "getBuiltinModule";
        if (isCreateRequire(callee) || builtin || (callee.type === "Identifier" && callee.name === "require")) requireCalls.push({ node, bound: true });
        else if (callee.type === "Identifier") requireCalls.push({ node, name: callee.name });
      },
      // After the whole file, so a require bound anywhere in it is known.
      "Program:exit": () => {
        for (const { node, bound, name } of requireCalls) {
          if (!bound && !requires.has(name)) continue;
          const s = specOf(node.arguments[0]);
          if (s) check(node, s.spec, s.computed);
          else if (fromKind === "core") context.report({ node, message: "core/ is pure: it must not load a module named at run time" });
        }
      },
    };
  },
};
