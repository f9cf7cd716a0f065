import { afterEach, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../src/transport/call/transport.js';
import { closedPort, type Loopback, readBody, startLoopback } from '../helpers/loopback.js';
import { makeClient, parseWire, REQUEST, readRequest, rejection, signedWithTestKey } from './sms-service.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('against real loopback sockets', () => {
  it('a refused connection is retried (retries + 1 attempts), each re-signed, and sent nothing', async () => {
    const port = await closedPort();
    const nonces: string[] = [];
    const fetch: FetchLike = async (input, init) => {
      nonces.push((await readRequest(input)).params.SignatureNonce ?? '');
      return globalThis.fetch(input, init);
    };
    const error = await rejection(makeClient({ baseUrl: `http://127.0.0.1:${port}`, fetch }).send(REQUEST));
    expect(error).toMatchObject({ code: 'NETWORK', outcome: 'not_sent', attempts: 3 });
    expect((error.cause as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
    expect(new Set(nonces).size).toBe(3);
  });

  it('a connection reset after the request was read is not re-sent: OUTCOME_UNKNOWN', async () => {
    const bodies: string[] = [];
    server = await startLoopback(async (request, _response, socket) => {
      bodies.push(await readBody(request));
      socket.destroy();
    });
    const error = await rejection(makeClient({ baseUrl: server.url }).send(REQUEST));
    expect(error).toMatchObject({ code: 'OUTCOME_UNKNOWN', outcome: 'unknown', attempts: 1 });
    expect(server.hits()).toBe(1);
    // The request did arrive whole and correctly signed: it may well have been acted on.
    expect(signedWithTestKey('POST', parseWire(bodies[0] ?? ''))).toBe(true);
  });

  it('with retryUnknownOutcome, a reset is re-sent and the second answer counts', async () => {
    server = await startLoopback(async (request, response, socket) => {
      await readBody(request);
      if (server?.hits() === 1) {
        socket.destroy();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ Code: 'OK', Message: 'OK', RequestId: 'loopback-1' }));
    });
    const result = await makeClient({ baseUrl: server.url, retryUnknownOutcome: true }).send(REQUEST);
    expect(result).toEqual({ code: 'OK', message: 'OK', requestId: 'loopback-1', attempts: 2 });
    expect(server.hits()).toBe(2);
  });

  it('a server that never answers: one request, OUTCOME_UNKNOWN after timeoutMs', async () => {
    server = await startLoopback(() => {
      // reads nothing, answers nothing
    });
    const error = await rejection(
      makeClient({ baseUrl: server.url, timeoutMs: 1500 }).send(REQUEST, { method: 'GET' }),
    );
    expect(error).toMatchObject({ code: 'OUTCOME_UNKNOWN', outcome: 'unknown', attempts: 1 });
    expect(server.hits()).toBe(1);
  });
});

describe('caller abort on the dispatcher path', () => {
  it('an abort while the request waits for a connection is not_sent; one on the wire stays unknown', async () => {
    const { Agent } = await import('undici');
    // One connection: the second send waits in the agent's queue behind the first, which stalls.
    const agent = new Agent({ connections: 1, pipelining: 1 });
    try {
      let arrived: () => void = () => {};
      const first = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      server = await startLoopback(() => arrived()); // reads nothing, answers nothing
      const client = makeClient({ baseUrl: server.url, dispatcher: agent, timeoutMs: 60_000 });
      const onWire = new AbortController();
      const queued = new AbortController();
      const stalled = rejection(client.send(REQUEST, { signal: onWire.signal }));
      await first;
      const waiting = rejection(client.send(REQUEST, { signal: queued.signal }));
      await new Promise((resolve) => setTimeout(resolve, 50));
      queued.abort();
      await expect(waiting).resolves.toMatchObject({ code: 'ABORTED', outcome: 'not_sent', attempts: 1 });
      onWire.abort();
      await expect(stalled).resolves.toMatchObject({ code: 'ABORTED', outcome: 'unknown', attempts: 1 });
      expect(server.hits()).toBe(1);
    } finally {
      await agent.destroy();
    }
  });
});
