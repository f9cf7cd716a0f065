/**
 * A lookup workload to profile (the server runs in its own process):
 *   node --cpu-prof --cpu-prof-dir=bench/.tmp/prof --import tsx bench/profile.ts [hashes] [rounds] [contender]
 *   node --import tsx bench/profile-summary.ts bench/.tmp/prof/<file>.cpuprofile
 * contender: sdk (default: scanMany on the default transport), sdkDispatcher (scanMany
 * on the opt-in undici dispatcher), ky (the
 * hand-written ky loop), careful (the careful fetch loop), kyBare (ky, no time-out),
 * undici (`undici.request` on its own Agent: the dispatcher path's floor).
 */
import { uniqueHashes } from './lib/hashes.js';
import { carefulGet, expectAllNotDetected, kyBareGetter, kyGetter, rawLoop } from './lib/raw-loop.js';
import { loadSdk } from './lib/sdk.js';
import { startServer } from './lib/server.js';

const [count = '20000', rounds = '2', contender = 'sdk'] = process.argv.slice(2);
const sdk = await loadSdk();
const server = await startServer();
const undici = await import('undici');
const dispatcher = contender === 'sdkDispatcher' || contender === 'undici' ? new undici.Agent() : undefined;
const client = new sdk.HashScanClient({
  baseUrl: server.url,
  apiKey: server.apiKey,
  cache: false,
  ...(dispatcher && { dispatcher }),
});
const loops = {
  ky: kyGetter(),
  kyBare: kyBareGetter(),
  careful: carefulGet,
  // The dispatcher path's floor: undici.request on an Agent of its own.
  undici: async (url: string) => {
    const res = await undici.request(url, dispatcher === undefined ? {} : { dispatcher });
    return { status: res.statusCode, text: await res.body.text() };
  },
};
const lookup = (hashes: string[]) => {
  if (contender === 'sdk' || contender === 'sdkDispatcher') return client.scanMany(hashes, { concurrency: 64 });
  const get = loops[contender as keyof typeof loops];
  if (get === undefined) throw new Error(`unknown contender ${contender}; pick sdk, ${Object.keys(loops).join(', ')}`);
  return rawLoop(server.url, server.apiKey, hashes, 64, get);
};
try {
  for (let round = 0; round < Number(rounds); round++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    expectAllNotDetected(await lookup(uniqueHashes(Number(count))), contender);
    const { user, system } = process.cpuUsage(cpu);
    const perSecond = Math.round((Number(count) / (performance.now() - started)) * 1000);
    console.log(`round ${round}: ${perSecond} req/s, ${((user + system) / Number(count)).toFixed(1)} µs CPU each`);
  }
} finally {
  await server.close();
  await dispatcher?.close();
}
