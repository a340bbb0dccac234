// Worker: tries to take a lock once, with the given age bound and timeout; says "trying" first, then
// "acquired" (and releases it) or the error's code.
// Args: lockPath staleMs timeoutMs
const [lockPath, staleMs, timeoutMs] = process.argv.slice(2);
const { acquireLock } = await import(process.env.AOP_DIST_URL + "/store/lock.js");
process.stdout.write("trying\n");
try {
  const release = await acquireLock(lockPath, { staleMs: Number(staleMs), timeoutMs: Number(timeoutMs), warn: (m) => process.stdout.write(`warning: ${m}\n`) });
  process.stdout.write("acquired\n");
  release();
} catch (err) {
  process.stdout.write(`${err.code ?? err.message}\n`);
}
