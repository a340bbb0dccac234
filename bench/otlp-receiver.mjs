// The loopback OTLP receiver for bench/suites/90-export.mjs, in its own process so that it does not
// share the exporter's event loop: @elastic/mockotlpserver on 127.0.0.1, port 0. It tells its parent
// its URL, then the number of spans received (and its CPU time) after each request.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { MockOtlpServer } = require("@elastic/mockotlpserver");

let spans = 0;
const server = new MockOtlpServer({
  services: ["http"],
  httpHostname: "127.0.0.1",
  httpPort: 0,
  logLevel: "error",
  onTrace: (req) => {
    for (const rs of req.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans += (ss.spans ?? []).length;
    const cpu = process.cpuUsage();
    if (process.connected) process.send({ spans, cpuMs: (cpu.user + cpu.system) / 1000 });
  },
});
await server.start();
process.send({ url: new URL("v1/traces", server.httpUrl).href });
process.on("disconnect", () => void server.close().then(() => process.exit(0)));
