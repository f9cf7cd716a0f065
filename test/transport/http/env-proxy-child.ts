// Run by env-proxy.test.ts in a child Node with NODE_USE_ENV_PROXY=1 and HTTP_PROXY set:
// a plain client, no proxy code, scans one hash and prints the verdict.
import { HashScanClient } from '../../../src/index.js';

const client = new HashScanClient({
  baseUrl: process.env.SANDBOX_URL ?? '',
  apiKey: process.env.SANDBOX_API_KEY ?? '',
  retry: false,
});
const result = await client.scan(process.env.HASH ?? '');
process.stdout.write(result.verdict);
