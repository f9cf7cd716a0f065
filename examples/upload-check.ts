/**
 * Check a file before accepting an upload, inside a plain `node:http`
 * handler. The upload is streamed to disk while it is hashed; only the
 * SHA-256 goes to the lookup service. Anything but `not_detected` keeps the
 * file out (`decide` never allows an error).
 *
 * Run: `npx tsx examples/upload-check.ts` (uses the local sandbox).
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { decide, HashScanClient, type ScanOutcome } from 'hashscan-sms';
import { SANDBOX_NOT_DETECTED_HASH, startSandbox } from 'hashscan-sms/sandbox';

/** Your upload endpoint: hash while storing, then ask the service before accepting. */
function uploadHandler(scanner: HashScanClient, uploadDir: string) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = join(uploadDir, `upload-${Date.now()}-${Math.random().toString(36).slice(2)}`);
    const sha256 = createHash('sha256');
    request.on('data', (chunk: Buffer) => sha256.update(chunk));
    await pipeline(request, createWriteStream(path));
    const hash = sha256.digest('hex');

    // Never rejects: a failed lookup is an `error` outcome, which decide() never allows.
    // (With the file already on disk, `scanner.scanFile(path)` hashes and looks up in one call.)
    const outcome: ScanOutcome = await scanner.scanOutcome(hash);
    const decision = decide(outcome); // 'block' | 'allow' | 'review'
    if (decision !== 'allow') await rm(path, { force: true }); // or move to quarantine for review
    response.writeHead(decision === 'allow' ? 201 : decision === 'block' ? 422 : 503, {
      'content-type': 'application/json',
    });
    // Return only the permitted risk state to the front end, never the raw lookup.
    response.end(JSON.stringify({ decision }));
  };
}

const sandbox = await startSandbox();
const uploadDir = await mkdtemp(join(tmpdir(), 'uploads-'));
const scanner = new HashScanClient({ apiKey: sandbox.apiKey, baseUrl: sandbox.hashScanUrl });
const handle = uploadHandler(scanner, uploadDir);
const server = createServer((request, response) => {
  handle(request, response).catch(() => {
    response.writeHead(500).end();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;

try {
  const uploads = {
    'eicar.txt': 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*',
    'empty.txt': '',
  };
  for (const [name, body] of Object.entries(uploads)) {
    const response = await fetch(`http://127.0.0.1:${port}/upload`, { method: 'POST', body });
    console.log(`${name}: HTTP ${response.status} ${await response.text()}`);
  }
  if (SANDBOX_NOT_DETECTED_HASH !== createHash('sha256').update('').digest('hex')) throw new Error('unexpected');
} finally {
  server.close();
  await sandbox.close();
  await rm(uploadDir, { recursive: true, force: true });
}
