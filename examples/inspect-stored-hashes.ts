/**
 * Inspect a list of stored hashes (one per line, e.g. exported from a
 * database) with `scanIterable`: lines are read lazily and at most
 * `concurrency` lookups run at once, so memory stays flat for millions of
 * lines. Identical hashes still cost one request while they are cached.
 *
 * Run: `npx tsx examples/inspect-stored-hashes.ts [file]` (uses the local sandbox;
 * without a file it writes a small sample).
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { decide, HashScanClient } from 'hashscan-sms';
import { EICAR_RECORD, SANDBOX_FAULT_HASHES, SANDBOX_NOT_DETECTED_HASH, startSandbox } from 'hashscan-sms/sandbox';

/** Yields the non-empty trimmed lines of a file, one at a time. */
async function* hashesIn(path: string): AsyncGenerator<string> {
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY })) {
    const hash = line.trim();
    if (hash !== '') yield hash;
  }
}

const sandbox = await startSandbox();
const workDir = await mkdtemp(join(tmpdir(), 'stored-hashes-'));
try {
  let file = process.argv[2];
  if (file === undefined) {
    file = join(workDir, 'hashes.txt');
    const sample = [
      EICAR_RECORD.sha256,
      SANDBOX_NOT_DETECTED_HASH,
      EICAR_RECORD.md5,
      SANDBOX_FAULT_HASHES['http-status'],
    ];
    await writeFile(
      file,
      `${Array.from({ length: 250 }, (_, i) => sample[i % sample.length]).join('\n')}\nnot-a-hash\n`,
    );
  }

  const client = new HashScanClient({
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.hashScanUrl,
    retry: { retries: 1, minDelayMs: 10, maxDelayMs: 50 },
  });
  const totals = { block: 0, allow: 0, review: 0 };
  const flagged: number[] = [];
  for await (const outcome of client.scanIterable(hashesIn(file), { concurrency: 16 })) {
    const decision = decide(outcome);
    totals[decision] += 1;
    if (decision === 'block' && flagged.length < 5) flagged.push(outcome.index + 1);
  }
  console.log(`block ${totals.block}, allow ${totals.allow}, review ${totals.review}`);
  console.log(`first flagged lines: ${flagged.join(', ')}`);
  console.log(`lookups sent: ${sandbox.requests.length}`);
} finally {
  await sandbox.close();
  await rm(workDir, { recursive: true, force: true });
}
