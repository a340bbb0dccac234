// Types of scripts/build-swap.mjs for the tests that swap builds while commands run.
export declare function stagingFolder(root: string): string;
export declare function swapIn(next: string, dist: string): void;
