// A JSON-Schema validator for the SDK that accepts everything: the ToolRuntime already validates
// every input and output with the precompiled catalog validators, so the SDK's pass would only repeat it.
import type { jsonSchemaValidator, JsonSchemaValidator } from "@modelcontextprotocol/client";

export const passThroughValidator: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (data: unknown) => ({ valid: true, data: data as T, errorMessage: undefined });
  },
};
