/**
 * A scanMany workload to profile the SDK's hot path (the server runs in its own process):
 *   node --cpu-prof --cpu-prof-dir=bench/.tmp/prof --import tsx bench/profile.ts [hashes] [rounds]
 *   node --import tsx bench/profile-summary.ts bench/.tmp/prof/<file>.cpuprofile
 */
import { uniqueHashes } from './lib/hashes.js';
import { expectAllNotDetected } from './lib/raw-loop.js';
import { loadSdk } from './lib/sdk.js';
import { startServer } from './lib/server.js';

const [count = '20000', rounds = '2'] = process.argv.slice(2);
const sdk = await loadSdk();
const server = await startServer();
const client = new sdk.HashScanClient({ baseUrl: server.url, apiKey: server.apiKey, cache: false });
try {
  for (let round = 0; round < Number(rounds); round++) {
    const started = performance.now();
    expectAllNotDetected(await client.scanMany(uniqueHashes(Number(count)), { concurrency: 64 }), 'sdk');
    console.log(`round ${round}: ${Math.round((Number(count) / (performance.now() - started)) * 1000)} req/s`);
  }
} finally {
  await server.close();
}
