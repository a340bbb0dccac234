// Build-time stand-in for `@modelcontextprotocol/server/_shims` in the bundled server SDK: the real one
// loads the SDK's vendored ajv (about 290 KB, a tenth of `aop mcp`'s start-up) for a default validator
// that aop never uses — the server validates with the catalog's precompiled validators and hands the
// SDK an explicit pass-through validator. Should anything still ask for the default, it fails loudly.
import process from "node:process";

export class DefaultJsonSchemaValidator {
  getValidator() {
    throw new Error("aop mcp: the SDK's default JSON Schema validator is not bundled; pass jsonSchemaValidator explicitly");
  }
}
export { process };
