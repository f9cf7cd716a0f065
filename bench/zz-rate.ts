import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { startServer } from './lib/server.js';
import { createHash } from 'node:crypto';
const lines = Number(process.argv[2] ?? 400);
const server = await startServer(20, 200);
const list = Array.from({ length: lines }, (_, i) => createHash('sha256').update(`rate ${i}`).digest('hex'));
writeFileSync('/tmp/rate.txt', list.join('\n') + '\n');
for (let r = 0; r < Number(process.argv[3] ?? 3); r++) {
  await server.reset();
  const t = performance.now();
  const res = spawnSync(process.execPath, ['dist/cli.js', 'lookup', '-f', 'ndjson', '--verbose', '--input', '/tmp/rate.txt'], { env: { ...process.env, HASHSCAN_BASE_URL: server.url, HASHSCAN_API_KEY: server.apiKey }, encoding: 'utf8' });
  const ms = performance.now() - t;
  const errors = res.stdout.split('\n').filter((l) => l.includes('"error"')).length;
  console.log(`exit ${res.status} ${Math.round(lines / ms * 1000)}/s, ${await server.refused()} 429s, ${errors} error rows`);
  if (process.argv[4] === 'v') console.log(res.stderr.split('\n').filter((l) => !l.startsWith('debug') && !l.startsWith('info hashscan: retrying')).join('\n'));
}
await server.close();
