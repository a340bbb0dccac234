// Preloaded (NODE_OPTIONS=--require …) into an aop process by tests that bound its memory: as the process
// exits it writes its peak resident set, in bytes, to the file named by AOP_TEST_RSS_FILE.
"use strict";
process.on("exit", () => {
  require("node:fs").writeFileSync(process.env.AOP_TEST_RSS_FILE, String(process.resourceUsage().maxRSS * 1024));
});
