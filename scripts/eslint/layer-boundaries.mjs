// ESLint rule `aop/layer-boundaries`: the import rules of the layout (docs/architecture.md).
// Each source folder names the folders it may import; a domain is imported only through its index.ts.
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

// Node modules that do I/O: core is pure.
const IO_MODULES = /^(node:)?(fs|fs\/promises|child_process|net|http|https|dgram|worker_threads|readline|os)$/;

export const layerBoundaries = {
  meta: { type: "problem", docs: { description: "enforce the layer and domain import boundaries" }, schema: [], messages: {} },
  create(context) {
    const file = context.filename ?? context.getFilename();
    const srcRoot = path.join(context.cwd ?? process.cwd(), "src");
    const relFile = path.relative(srcRoot, file).split(path.sep).join("/");
    if (relFile.startsWith("..") || relFile.startsWith("catalog/generated/")) return {};
    const from = layerOf(relFile);
    const fromKind = from.startsWith("domains/") ? "domains" : from;
    function check(node, spec) {
      if (typeof spec !== "string") return;
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
      if (toKind === "domains" && to !== from && target !== `${to}/index.js`) {
        context.report({ node, message: `import ${to} through its public surface '${to}/index.js', not '${spec}'` });
      }
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};
