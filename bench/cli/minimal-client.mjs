// The contest's reference: what a careful user writes by hand for `lookup`.
// undici's request(), `--concurrency` lookups in flight (256 by default),
// JSON.parse and the shape check of the non-detection answer, one NDJSON
// line per result to stdout. No retries, no resume, no cache. Plain
// JavaScript so that it runs with `node` alone, like the CLI.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';

const [input, concurrencyText = '256'] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const base = process.env.HASHSCAN_BASE_URL;
const prefix = `${base}/hash_scan?api_key=${encodeURIComponent(process.env.HASHSCAN_API_KEY ?? '')}&hash=`;
const hashes = readFileSync(input, 'utf8')
  .split('\n')
  .filter((line) => line !== '');
const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
const KEYS = ['is_virus', 'message', 'status'];

function verdict(status, text) {
  if (status !== 200) return 'error';
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return 'error';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body) || body.status !== 'success') return 'error';
  if (body.is_virus === true) return 'malicious';
  const keys = Object.keys(body).sort();
  return body.is_virus === false && keys.length === 3 && keys.every((key, i) => key === KEYS[i])
    ? 'not_detected'
    : 'error';
}

let next = 0;
let pending = '';
const flush = () => {
  if (pending !== '') process.stdout.write(pending);
  pending = '';
};
const timer = setInterval(flush, 10);
async function worker() {
  while (next < hashes.length) {
    const line = next;
    const hash = hashes[next++];
    let result;
    try {
      const res = await request(prefix + hash, { dispatcher, headersTimeout: 10_000, bodyTimeout: 10_000 });
      result = verdict(res.statusCode, await res.body.text());
    } catch {
      result = 'error';
    }
    pending += `${JSON.stringify({ line: line + 1, hash, verdict: result })}\n`;
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
clearInterval(timer);
flush();
await dispatcher.close();
