// npm run bench [-- suite...]: runs every suite (or the named ones) and prints figures beside baselines.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { allRows } from "./lib.mjs";

const suitesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "suites");
const wanted = process.argv.slice(2);
const suites = fs
  .readdirSync(suitesDir)
  .filter((f) => f.endsWith(".mjs"))
  .sort()
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/^\d+-/, "").replace(/\.mjs$/, "")));

// Every figure is measured with NODE_EXTRA_CA_CERTS unset: Node 20 loads those certificates at every
// start (the system bundle, ~150 certificates, adds 50–65 ms to a bare `node -e 0` here), which would
// pad every process row and its `node -e 0` baseline alike and flatter every start-up ratio.
const extraCaCerts = process.env.NODE_EXTRA_CA_CERTS !== undefined;
delete process.env.NODE_EXTRA_CA_CERTS;
process.stdout.write(`node ${process.version} · ${new Date().toISOString()}${extraCaCerts ? " · NODE_EXTRA_CA_CERTS unset for the run" : ""}\n`);
for (const file of suites) {
  const suite = await import(pathToFileURL(path.join(suitesDir, file)).href);
  await suite.run();
}
const misses = allRows().filter((r) => r.verdict.startsWith("MISS"));
process.stdout.write(`\n${allRows().length} figures, ${misses.length} target${misses.length === 1 ? "" : "s"} missed\n`);
