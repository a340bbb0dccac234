// Stress tests come in two sizes: `npm test` runs them at a size that still catches a regression in
// seconds, `npm run test:soak` (vitest.soak.config.ts, which runs every test file importing this one)
// at full size — many processes, long crash loops, huge inputs, long property runs. .ci/run runs both.
export const SOAK = process.env.AOP_TEST_SOAK === "1";

/** `quick` in `npm test`, `full` in `npm run test:soak`. */
export function bySuite<T>(quick: T, full: T): T {
  return SOAK ? full : quick;
}
