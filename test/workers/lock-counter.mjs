// Worker: N cycles of lock → read counter → increment → write → unlock on one shared file.
import fs from "node:fs";
const [counterFile, cycles] = process.argv.slice(2);
const { acquireLock } = await import(process.env.AOP_DIST_URL + "/store/lock.js");
for (let i = 0; i < Number(cycles); i++) {
  const release = await acquireLock(counterFile + ".lock", { timeoutMs: 60_000 });
  const value = Number(fs.readFileSync(counterFile, "utf8"));
  fs.writeFileSync(counterFile, String(value + 1));
  release();
}
process.stdout.write("done\n");
