// Worker: takes a lock, says so, then holds it until killed.
const [lockPath] = process.argv.slice(2);
const { acquireLock } = await import(process.env.AOP_DIST_URL + "/store/lock.js");
await acquireLock(lockPath);
process.stdout.write("holding\n");
setInterval(() => undefined, 1000);
