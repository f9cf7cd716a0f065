// Preloaded (`node --require`) into each contestant: at exit, writes the
// process's CPU time (user + system, µs) and its peak RSS (KiB) to the file
// named by BENCH_CPU_FILE.
const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  const file = process.env.BENCH_CPU_FILE;
  if (file === undefined) return;
  const { user, system } = process.cpuUsage();
  writeFileSync(file, `${user + system} ${process.resourceUsage().maxRSS}`);
});
