/**
 * The round trip of docs/inspecting-over-time.md, run for real: a
 * throw-away PostgreSQL cluster (initdb, pg_ctl, as the postgres user, on a
 * free port, its socket in a temp dir), a table of files indexed by sha256,
 * `psql \copy … to stdout | hashscan-sms lookup --format csv | psql \copy … from stdin`.
 * Skipped only outside CI when PostgreSQL is not installed (.ci/run installs it).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eicarTestFile, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { CLI_PATH } from './build-cli.js';
import { cliEnv, collect } from './run-cli.js';

const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort() : [];
const bin = versions.length > 0 ? join('/usr/lib/postgresql', versions.at(-1) as string, 'bin') : undefined;
const usable = bin !== undefined && existsSync(join(bin, 'initdb')) && spawnSync('id', ['postgres']).status === 0;
if (process.env.CI === 'true' && !usable) throw new Error('PostgreSQL must be installed in CI (.ci/run SYSTEM_TOOLS)');

const sha256 = (bytes: string | Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

let dir: string;
let port: number;
let sandbox: Sandbox;
const asPostgres = (command: string, args: readonly string[]): string =>
  execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8', cwd: '/' });

describe.skipIf(!usable)('a database-indexed store: psql → lookup --format csv → psql', () => {
  beforeAll(async () => {
    // Under /tmp itself: the postgres user must reach it (the suite's own TMPDIR is private to root),
    // and the socket's path must stay under the 107 bytes a Unix socket name allows.
    dir = await mkdtemp('/tmp/psql-round-trip-');
    chmodSync(dir, 0o777);
    port = await freePort();
    const data = join(dir, 'data');
    asPostgres(join(bin as string, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    asPostgres(join(bin as string, 'pg_ctl'), [
      '-D',
      data,
      '-w',
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses='' -c fsync=off`,
      'start',
    ]);
    sandbox = await startSandbox();
  }, 60_000);

  afterAll(async () => {
    if (bin !== undefined && dir !== undefined) {
      spawnSync('runuser', [
        '-u',
        'postgres',
        '--',
        join(bin, 'pg_ctl'),
        '-D',
        join(dir, 'data'),
        '-m',
        'immediate',
        'stop',
      ]);
    }
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the guide’s pipeline as written, and the verdicts land back in the table', async () => {
    const psql = `runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -h ${dir} -p ${port} -d postgres`;
    const sql = (text: string): string =>
      asPostgres('psql', [
        '-X',
        '-q',
        '-At',
        '-v',
        'ON_ERROR_STOP=1',
        '-h',
        dir,
        '-p',
        String(port),
        '-d',
        'postgres',
        '-c',
        text,
      ]);
    const clean = sha256('a clean stored file');
    const eicar = sha256(eicarTestFile());
    sql('CREATE TABLE files (id serial PRIMARY KEY, name text, sha256 text NOT NULL)');
    sql('CREATE INDEX ON files (sha256)');
    sql(`INSERT INTO files (name, sha256) VALUES ('report.pdf', '${clean}'), ('eicar.com', '${eicar}')`);
    sql(`CREATE TABLE verdicts (line int, decision text, verdict text, detail text, hash text, name text,
      name_base64 text, source text, error text, checked_at timestamptz, first_seen timestamp, last_seen timestamp)`);

    // The guide's lines, with the guide's flags.
    const pipeline = [
      `${psql} -c "\\copy (select sha256 from files) to stdout"`,
      `node ${CLI_PATH} lookup --format csv --quiet`,
      `${psql} -c "\\copy verdicts from stdin with (format csv, header true)"`,
    ].join(' | ');
    // Asynchronous: the sandbox answers from this process's event loop.
    const run = await collect(
      spawn('bash', ['-o', 'pipefail', '-c', pipeline], {
        env: cliEnv({ HASHSCAN_BASE_URL: sandbox.hashScanUrl, HASHSCAN_API_KEY: sandbox.apiKey }),
      }),
    );
    // 1: a block among the answers, as the exit status says; the pipeline carried every row anyway.
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const rows = sql(
      `SELECT f.name, v.decision, v.verdict, v.checked_at IS NOT NULL, v.first_seen IS NOT NULL
       FROM files f JOIN verdicts v ON v.hash = f.sha256 ORDER BY f.name`,
    );
    expect(rows.trim().split('\n')).toEqual(['eicar.com|block|malicious|t|t', 'report.pdf|allow|not_detected|t|f']);
    const age = sql("SELECT max(now() - checked_at) < interval '1 hour' FROM verdicts");
    expect(age.trim()).toBe('t');
  });
});
