// Types of scripts/node-binary.mjs for the TypeScript tests that import it.
export declare function defaultNodeCache(): string;
export declare function cachedNode(line: string, cache?: string): string | null;
export declare function nodeOf(line: string, cache?: string, log?: (line: string) => void): string;
