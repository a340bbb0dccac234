// Types of scripts/generate.mjs for the tests that exercise its schema transformations.
export declare const AJV_OPTIONS: Record<string, unknown>;
export declare function relaxForUserFile(schema: unknown): unknown;
export declare function inlineLocalRefs<T>(schema: T): T;
export declare function generate(): string[];
export declare function aopFileSchema(relaxedPolicy: unknown): Record<string, unknown>;
