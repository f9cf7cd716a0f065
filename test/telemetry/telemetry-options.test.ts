import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import { SmsClient } from '../../src/sms/index.js';
import { checkTelemetry } from '../../src/telemetry/telemetry-options.js';

describe('the telemetry option', () => {
  it('takes false, undefined or providers with the right methods', () => {
    const tracerProvider = { getTracer: () => ({}) };
    const meterProvider = { getMeter: () => ({}) };
    expect(checkTelemetry(undefined)).toBeUndefined();
    expect(checkTelemetry(false)).toBe(false);
    expect(checkTelemetry({})).toEqual({});
    expect(checkTelemetry({ tracerProvider, meterProvider })).toEqual({ tracerProvider, meterProvider });
  });

  it.each([
    ['true', true],
    ['a string', 'otel'],
    ['an array', []],
    ['a tracer provider without getTracer', { tracerProvider: {} }],
    ['a meter provider without getMeter', { meterProvider: { getTracer: () => ({}) } }],
  ])('refuses %s with a ConfigurationError naming the option, in both clients', (_name, telemetry) => {
    expect(() => checkTelemetry(telemetry)).toThrow(ConfigurationError);
    const base = { baseUrl: 'https://h.example', telemetry } as unknown as object;
    expect(() => new HashScanClient({ ...base, apiKey: 'k-1234' })).toThrow(/telemetry/);
    expect(() => new SmsClient({ ...base, accessKeyId: 'id-1234', accessKeySecret: 'secret-1234' })).toThrow(
      /telemetry/,
    );
  });
});
