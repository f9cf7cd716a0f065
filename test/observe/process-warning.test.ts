import { afterEach, describe, expect, it, vi } from 'vitest';
import { HashScanClient, SmsClient } from '../../src/index.js';
import { WARNING_NAME, warnOnce } from '../../src/observe/process-warning.js';
import { claimProcessWarnings } from '../setup/process-guard.js';

const EMITTED = Symbol.for('hashscan-sms.warnings-emitted');
const registry = globalThis as { [EMITTED]?: Set<string> };

/** The warnings Node emits while `run` runs (a `warning` event comes on the next tick). */
async function warningsDuring(run: () => void): Promise<Error[]> {
  const seen: Error[] = [];
  const listener = (warning: Error): void => {
    seen.push(warning);
  };
  process.on('warning', listener);
  try {
    run();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listener);
  }
  return seen;
}

describe('a dangerous configuration warns through process.emitWarning, once per code per process', () => {
  afterEach(() => {
    registry[EMITTED]?.delete('HASHSCAN_SMS_FLEET_OFFLINE_QUEUE');
  });

  it('a fleet Redis client that queues while disconnected, with the default (silent) logger', async () => {
    registry[EMITTED]?.delete('HASHSCAN_SMS_FLEET_OFFLINE_QUEUE');
    const nodeRedis = { sendCommand: async () => null, isReady: true, options: {} };
    const ioredis = { call: async () => null, defineCommand: () => {}, status: 'ready', options: {} };
    const seen = await warningsDuring(() => {
      new HashScanClient({ apiKey: 'k', baseUrl: 'https://h.test', fleet: { redis: nodeRedis } });
      new SmsClient({ accessKeyId: 'id', accessKeySecret: 's', baseUrl: 'https://s.test', fleet: { redis: ioredis } });
    });
    expect(seen).toHaveLength(1); // once per process, however many clients
    const [warning] = seen as [Error & { code?: string }];
    expect(warning.name).toBe(WARNING_NAME);
    expect(warning.code).toBe('HASHSCAN_SMS_FLEET_OFFLINE_QUEUE');
    expect(warning.message).toContain('disableOfflineQueue: true');
    expect(claimProcessWarnings('HASHSCAN_SMS_FLEET_OFFLINE_QUEUE')).toBe(1);
  });

  it('says nothing for a client with its offline queue off', async () => {
    const redis = { sendCommand: async () => null, isReady: true, options: { disableOfflineQueue: true } };
    const seen = await warningsDuring(() => {
      new HashScanClient({ apiKey: 'k', baseUrl: 'https://h.test', fleet: { redis } });
    });
    expect(seen).toEqual([]);
  });

  it('without `process` (Workers), writes to console.warn instead, once; never throws', () => {
    const warn = vi.fn();
    const host = { console: { warn } };
    warnOnce('HASHSCAN_SMS_FLEET_OFFLINE_QUEUE', 'queues', host);
    warnOnce('HASHSCAN_SMS_FLEET_OFFLINE_QUEUE', 'queues', host);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('HashScanSmsWarning [HASHSCAN_SMS_FLEET_OFFLINE_QUEUE]: queues');
    expect(() => warnOnce('HASHSCAN_SMS_FLEET_OFFLINE_QUEUE', 'x', Object.freeze({}))).not.toThrow();
    const emitWarning = vi.fn();
    warnOnce('HASHSCAN_SMS_FLEET_OFFLINE_QUEUE', 'queues', { process: { emitWarning } });
    expect(emitWarning).toHaveBeenCalledWith('queues', {
      type: WARNING_NAME,
      code: 'HASHSCAN_SMS_FLEET_OFFLINE_QUEUE',
    });
  });
});
