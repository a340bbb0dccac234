// Types of scripts/schema-types.mjs for its tests.
export declare function typeOf(schema: unknown, mode?: "input" | "output"): string;
export declare function toolTypesSource(tools: { name: string; input_schema_ref: string; output_schema_ref: string }[], schemaOf: (ref: string) => unknown): string;
