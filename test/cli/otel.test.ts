import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EICAR_RECORD, SANDBOX_API_KEY, SANDBOX_NOT_DETECTED_HASH } from '../../src/sandbox/index.js';
import { runCli } from './run-cli.js';

/** A loopback OTLP/HTTP receiver (JSON encoding): what each path received, parsed. */
interface Receiver {
  readonly url: string;
  readonly bodies: Map<string, unknown[]>;
  readonly raw: string[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const bodies = new Map<string, unknown[]>();
  const raw: string[] = [];
  const read = async (request: IncomingMessage) => {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    return text;
  };
  const server: Server = createServer((request, response) => {
    void read(request).then((text) => {
      raw.push(text);
      const list = bodies.get(request.url ?? '') ?? [];
      list.push(JSON.parse(text));
      bodies.set(request.url ?? '', list);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    raw,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface OtlpSpan {
  readonly name: string;
  readonly kind: number;
  readonly attributes: { key: string; value: Record<string, unknown> }[];
}

const spansOf = (bodies: unknown[] | undefined): OtlpSpan[] =>
  (bodies ?? []).flatMap((body) =>
    (body as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((resource) =>
      resource.scopeSpans.flatMap((scope) => scope.spans),
    ),
  );

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  await receiver.close();
});

describe('hashscan-sms --otel', () => {
  it('exports the run’s spans and metrics over OTLP as the OTEL_* variables say, flushed before exit', async () => {
    const run = await runCli(['lookup', '--sandbox', '--otel', EICAR_RECORD.sha256, SANDBOX_NOT_DETECTED_HASH], {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_LOGS_EXPORTER: 'none',
        OTEL_SERVICE_NAME: undefined,
      },
    });
    expect(run.stderr).toBe('hashscan-sms: 2 hashes: 1 block, 0 review, 1 allow\n'); // no --otel complaint
    expect(run.code).toBe(1); // EICAR: block
    const spans = spansOf(receiver.bodies.get('/v1/traces'));
    expect(spans.map((span) => span.name).sort()).toEqual(['GET', 'GET', 'HashScanClient.scan', 'HashScanClient.scan']);
    const verdicts = spans
      .flatMap((span) => span.attributes)
      .filter((attribute) => attribute.key === 'hashscan.verdict')
      .map((attribute) => attribute.value.stringValue)
      .sort();
    expect(verdicts).toEqual(['malicious', 'not_detected']);
    const urls = spans.flatMap((span) => span.attributes).filter((attribute) => attribute.key === 'url.full');
    for (const url of urls) expect(String(url.value.stringValue)).toMatch(/api_key=REDACTED&/);
    const traces = JSON.stringify(receiver.bodies.get('/v1/traces'));
    expect(traces).toContain('"stringValue":"hashscan-sms"'); // service.name
    const metrics = JSON.stringify(receiver.bodies.get('/v1/metrics'));
    expect(metrics).toContain('"name":"hashscan.lookups"');
    expect(metrics).toContain('"name":"http.client.request.duration"');
    expect(receiver.raw.join('\n')).not.toContain(SANDBOX_API_KEY);
  });

  it('without --otel, sends nothing to the collector', async () => {
    const run = await runCli(['lookup', '--sandbox', SANDBOX_NOT_DETECTED_HASH], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
    });
    expect(run.code).toBe(0);
    expect(receiver.raw).toEqual([]);
  });
});
