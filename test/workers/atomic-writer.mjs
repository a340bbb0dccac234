// Worker: rewrites one file atomically in a loop with large, self-checking contents.
const [target] = process.argv.slice(2);
const { writeFileAtomic } = await import(process.env.AOP_DIST_URL + "/store/atomic-write.js");
let i = 0;
for (;;) {
  const fill = String(i++ % 10).repeat(2 * 1024 * 1024);
  writeFileAtomic(target, JSON.stringify({ i, fill }));
  // After the first complete write: the test kills the writer at a random moment from here on.
  if (i === 1) process.stdout.write("writing\n");
}
