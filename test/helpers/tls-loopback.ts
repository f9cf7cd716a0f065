import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duplex } from 'node:stream';
import { createSecureContext, TLSSocket } from 'node:tls';
import type { FetchLike } from '../../src/transport/call/transport.js';

export interface TestCertificate {
  readonly key: string;
  readonly cert: string;
}

/**
 * A fresh self-signed certificate for `localhost` and `127.0.0.1`, made by the
 * `openssl` command in a temporary directory that is removed at once.
 */
export function createTestCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'hashscan-sms-tls-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What the server does once it has read a whole request:
 * - `corrupt-record`: answers `200` headers and the start of a body, then
 *   writes a forged application-data record (valid header, garbage payload:
 *   the client fails to decrypt it) straight onto the TCP socket, and closes.
 * - `corrupt-header`: the same with a record header of the wrong version.
 * - `answer`: a normal service answer.
 */
export type TlsBehaviour = 'corrupt-record' | 'corrupt-header' | 'answer';

/** How a connection is treated before TLS: `tls`, or dropped after the ClientHello, or answered in plain HTTP. */
export type ConnectionBehaviour = 'tls' | 'drop-in-handshake' | 'plain-http';

export interface TlsLoopback {
  /** `https://localhost:<port>` */
  readonly url: string;
  /** Complete requests read (after TLS). */
  readonly requests: () => number;
  /** TCP connections accepted. */
  readonly connections: () => number;
  close(): Promise<void>;
}

const FORGED_RECORD = Buffer.concat([Buffer.from([0x17, 0x03, 0x03, 0x00, 0x20]), Buffer.alloc(32, 0x41)]);
// An application-data record claiming TLS 1.0: OpenSSL 3 reports `ERR_SSL_WRONG_VERSION_NUMBER`.
const GARBAGE_HEADER = Buffer.concat([Buffer.from([0x17, 0x03, 0x01, 0x00, 0x20]), Buffer.alloc(32, 0x41)]);
const OK_BODY = JSON.stringify({ Code: 'OK', Message: 'OK', RequestId: 'tls-loopback-1' });

/** Whole requests in `buffer`: headers plus `content-length` bytes of body. */
function completeRequests(buffer: string): { count: number; rest: string } {
  let count = 0;
  let rest = buffer;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return { count, rest };
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(rest.slice(0, end))?.[1] ?? 0);
    if (rest.length < end + 4 + length) return { count, rest };
    rest = rest.slice(end + 4 + length);
    count += 1;
  }
}

/**
 * A real TLS server on 127.0.0.1. TLS runs over a stream the test owns, so it
 * can write raw bytes onto the TCP socket in order with the encrypted ones.
 */
export async function startTlsLoopback(
  certificate: TestCertificate,
  behaviour: TlsBehaviour,
  connection: ConnectionBehaviour = 'tls',
): Promise<TlsLoopback> {
  const context = createSecureContext({ key: certificate.key, cert: certificate.cert });
  let requests = 0;
  let connections = 0;
  const sockets = new Set<Socket>();

  const serve = (raw: Socket): void => {
    // After the next encrypted write, `after` runs (the forged bytes then follow it on the wire).
    let after: (() => void) | undefined;
    const cipher = new Duplex({
      read() {},
      write(chunk, _encoding, done) {
        raw.write(chunk);
        const next = after;
        after = undefined;
        next?.();
        done();
      },
    });
    raw.on('data', (data) => cipher.push(data));
    raw.on('end', () => cipher.push(null));
    raw.on('close', () => cipher.destroy());
    const tls = new TLSSocket(cipher, { isServer: true, secureContext: context });
    tls.on('error', () => raw.destroy());
    let buffer = '';
    tls.on('data', (data: Buffer) => {
      const read = completeRequests(buffer + data.toString('latin1'));
      buffer = read.rest;
      for (let i = 0; i < read.count; i++) {
        requests += 1;
        if (behaviour === 'answer') {
          tls.write(
            `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${OK_BODY.length}\r\n\r\n${OK_BODY}`,
          );
          continue;
        }
        after = () => {
          raw.write(behaviour === 'corrupt-record' ? FORGED_RECORD : GARBAGE_HEADER);
          raw.end();
        };
        tls.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n{"Code":');
      }
    });
  };

  const server: Server = createServer((raw) => {
    connections += 1;
    sockets.add(raw);
    raw.on('close', () => sockets.delete(raw));
    raw.on('error', () => {});
    if (connection === 'drop-in-handshake') {
      raw.once('data', () => raw.destroy());
    } else if (connection === 'plain-http') {
      raw.once('data', () => raw.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n'));
    } else {
      serve(raw);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `https://localhost:${port}`,
    requests: () => requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A `fetch` over `node:https`, as node-fetch and similar libraries are: the
 * socket's own error (its `code` intact, e.g. an OpenSSL `ERR_SSL_*` raised
 * mid-response) rejects the call. One connection per request.
 */
export function httpsFetch(ca?: string): FetchLike {
  return async (input) => {
    const body = input.method === 'GET' ? undefined : Buffer.from(await input.arrayBuffer());
    const headers: Record<string, string> = {};
    input.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return new Promise<Response>((resolve, reject) => {
      const request = httpsRequest(
        input.url,
        { method: input.method, headers, agent: false, ...(ca && { ca }) },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(response.headers)) {
              if (typeof value === 'string') headers.set(name, value);
            }
            resolve(new Response(Buffer.concat(chunks), { status: response.statusCode ?? 0, headers }));
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  };
}
