import js from "@eslint/js";
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { layerBoundaries } from "./scripts/eslint/layer-boundaries.mjs";

const TYPE_ONLY_REEXPORT = {
  selector: "ExportNamedDeclaration[exportKind='value'][source]:has(ExportSpecifier):not(:has(ExportSpecifier[exportKind='value']))",
  message: "a re-export of types only must be `export type { … } from`: `export { type … } from` still loads the module",
};

export default tseslint.config(
  { ignores: ["dist/**", ".dist-*/**", "node_modules/**", "coverage/**", "src/catalog/generated/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: "readonly", console: "readonly", Buffer: "readonly", setTimeout: "readonly",
        clearTimeout: "readonly", setInterval: "readonly", clearInterval: "readonly", URL: "readonly",
        performance: "readonly", AbortController: "readonly", structuredClone: "readonly",
        setImmediate: "readonly", TextEncoder: "readonly", TextDecoder: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      // `import { type X }` and `export { type X } from` keep a bare import of the module under
      // verbatimModuleSyntax, so a type-only import would load the module (and all it imports).
      "@typescript-eslint/no-import-type-side-effects": "error",
      "no-restricted-syntax": ["error", TYPE_ONLY_REEXPORT],
      "no-constant-condition": ["error", { checkLoops: false }],
      // One commander instance: its classes are compared with instanceof across modules.
      "no-restricted-imports": ["error", { paths: [{ name: "commander", message: "import values from src/adapters/cli/commander-vendor.ts (types may come from commander)", allowTypeImports: true }] }],
    },
  },
  {
    // The layout's boundaries (docs/architecture.md): layers, domains through index.ts, no cycles.
    files: ["src/**/*.ts"],
    plugins: { "import-x": importX, aop: { rules: { "layer-boundaries": layerBoundaries } } },
    settings: {
      "import-x/extensions": [".ts"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })],
    },
    rules: {
      "aop/layer-boundaries": "error",
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    // A test process runs many files and evaluates a helper once (vitest.config.ts: isolate is off), so a
    // hook a helper registers at its top level would serve the first file only.
    files: ["test/helpers/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        TYPE_ONLY_REEXPORT,
        {
          selector: "Program > ExpressionStatement > CallExpression[callee.name=/^(after|before)(All|Each)$/]",
          message: "a helper's top-level hook runs for the first test file of a process only: register the clean-up with atFileEnd (test/helpers/file-end.ts)",
        },
      ],
    },
  },
  {
    files: ["**/*.mjs", "**/*.js", "**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // bin/package.json makes bin/aop.js CommonJS (docs/startup.md).
    files: ["**/*.cjs", "bin/*.js"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", module: "writable", __filename: "readonly", __dirname: "readonly" } },
  },
  {
    // The one place commander's values are imported (and bundled).
    files: ["src/adapters/cli/commander-vendor.ts"],
    rules: { "no-restricted-imports": "off" },
  },
);
