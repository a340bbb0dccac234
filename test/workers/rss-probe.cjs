// Preloaded (`node --require`) into a long-running aop process by tests that bound its memory: on SIGUSR2
// it writes `aop-rss-probe {"max_rss_bytes":N}` (the process's peak resident set so far) to stderr.
"use strict";
process.on("SIGUSR2", () => {
  process.stderr.write(`aop-rss-probe ${JSON.stringify({ max_rss_bytes: process.resourceUsage().maxRSS * 1024 })}\n`);
});
