/**
 * Under `exactOptionalPropertyTypes`, an optional property typed `x?: T` refuses `{ x: undefined }`.
 * Users build options from their own config (`{ timeoutMs: config.timeoutMs }`), so every optional
 * option of the public API accepts an explicit `undefined`, meaning "not set". The type checks
 * below fail `npm run typecheck` (this repository compiles with exactOptionalPropertyTypes) and
 * name the keys that refuse it; the runtime checks prove `undefined` means the default.
 */
import { describe, expect, it } from 'vitest';
import {
  type CircuitBreakerOptions,
  type CommonClientOptions,
  type DecisionPolicy,
  decide,
  type FleetOptions,
  type HashFilesOptions,
  HashScanClient,
  type HashScanClientOptions,
  type HashScanFleetOptions,
  type OtpSendRequest,
  type OtpVerifierOptions,
  type PumpingGuardOptions,
  type RateLimitOptions,
  type RecipientLimits,
  type RetryBudgetOptions,
  type RetryOptions,
  type ScanCacheOptions,
  type ScanFileOptions,
  type ScanIterableOptions,
  type ScanManyOptions,
  type ScanOptions,
  type SendSmsOptions,
  type SendSmsRequest,
  type SharedCacheOptions,
  SmsClient,
  type SmsClientOptions,
  type SmsCredentials,
  type SmsFleetOptions,
  type SmsLimitsOptions,
  type TelemetryOptions,
} from '../../src/index.js';
import type {
  HashScanHandlerOptions,
  HashScanServiceOptions,
  RecordForOptions,
  SandboxOptions,
  SmsHandlerOptions,
  SmsServiceOptions,
} from '../../src/testing/index.js';

/** The optional keys of `T` that refuse an explicit `undefined` (never when all accept it). */
type RefusesUndefined<T> = {
  [K in keyof T]-?: object extends Pick<T, K> ? ({ [P in K]: undefined } extends Pick<T, K> ? never : K) : never;
}[keyof T];

/** Compiles only when `Keys` is `never`; otherwise the error shows the offending keys. */
type AcceptsUndefined<Keys extends never> = Keys;

type Checked = [
  AcceptsUndefined<RefusesUndefined<CommonClientOptions>>,
  AcceptsUndefined<RefusesUndefined<HashScanClientOptions>>,
  AcceptsUndefined<RefusesUndefined<SmsClientOptions>>,
  AcceptsUndefined<RefusesUndefined<SmsCredentials>>,
  AcceptsUndefined<RefusesUndefined<RetryOptions>>,
  AcceptsUndefined<RefusesUndefined<RetryBudgetOptions>>,
  AcceptsUndefined<RefusesUndefined<CircuitBreakerOptions>>,
  AcceptsUndefined<RefusesUndefined<RateLimitOptions>>,
  AcceptsUndefined<RefusesUndefined<ScanCacheOptions>>,
  AcceptsUndefined<RefusesUndefined<SharedCacheOptions>>,
  AcceptsUndefined<RefusesUndefined<ScanOptions>>,
  AcceptsUndefined<RefusesUndefined<ScanManyOptions>>,
  AcceptsUndefined<RefusesUndefined<ScanIterableOptions>>,
  AcceptsUndefined<RefusesUndefined<ScanFileOptions>>,
  AcceptsUndefined<RefusesUndefined<HashFilesOptions>>,
  AcceptsUndefined<RefusesUndefined<DecisionPolicy>>,
  AcceptsUndefined<RefusesUndefined<SendSmsRequest>>,
  AcceptsUndefined<RefusesUndefined<SendSmsOptions>>,
  AcceptsUndefined<RefusesUndefined<SandboxOptions>>,
  AcceptsUndefined<RefusesUndefined<HashScanHandlerOptions>>,
  AcceptsUndefined<RefusesUndefined<SmsHandlerOptions>>,
  AcceptsUndefined<RefusesUndefined<HashScanServiceOptions>>,
  AcceptsUndefined<RefusesUndefined<SmsServiceOptions>>,
  AcceptsUndefined<RefusesUndefined<RecordForOptions>>,
  AcceptsUndefined<RefusesUndefined<FleetOptions>>,
  AcceptsUndefined<RefusesUndefined<HashScanFleetOptions>>,
  AcceptsUndefined<RefusesUndefined<SmsFleetOptions>>,
  AcceptsUndefined<RefusesUndefined<SmsLimitsOptions>>,
  AcceptsUndefined<RefusesUndefined<RecipientLimits>>,
  AcceptsUndefined<RefusesUndefined<TelemetryOptions>>,
  AcceptsUndefined<RefusesUndefined<OtpVerifierOptions>>,
  AcceptsUndefined<RefusesUndefined<PumpingGuardOptions>>,
  AcceptsUndefined<RefusesUndefined<OtpSendRequest>>,
];

/** Every optional key of `T`, set to `undefined`: listing them all is enforced, so a new option joins this test. */
type AllUndefined<T> = { readonly [K in keyof T]-?: undefined };

const clientKeys: Omit<AllUndefined<HashScanClientOptions>, 'baseUrl' | 'apiKey'> = {
  sourceId: undefined,
  timeoutMs: undefined,
  totalTimeoutMs: undefined,
  maxResponseBytes: undefined,
  retry: undefined,
  cache: undefined,
  retryBudget: undefined,
  circuitBreaker: undefined,
  rateLimit: undefined,
  allowedExtraFields: undefined,
  fetch: undefined,
  dispatcher: undefined,
  logger: undefined,
  fleet: undefined,
  telemetry: undefined,
};

describe('an explicit undefined means "not set", at run time too', () => {
  it('the type checks above are part of this file (npm run typecheck fails on a key that refuses undefined)', () => {
    const checked: Checked | undefined = undefined;
    expect(checked).toBeUndefined();
  });

  it('HashScanClient: every option and nested option undefined gives the defaults', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const sandbox = await startSandbox({
      host: undefined,
      port: undefined,
      hashScan: undefined,
      sms: undefined,
      maxBodyBytes: undefined,
      inbox: undefined,
      recordLimit: undefined,
    } satisfies AllUndefined<SandboxOptions>);
    try {
      const required = { baseUrl: sandbox.url, apiKey: sandbox.apiKey };
      const defaults = new HashScanClient(required);
      const explicit = new HashScanClient({ ...required, ...clientKeys });
      expect(explicit.toJSON()).toEqual(defaults.toJSON());
      const nested = new HashScanClient({
        ...required,
        retry: {
          retries: undefined,
          minDelayMs: undefined,
          maxDelayMs: undefined,
        } satisfies AllUndefined<RetryOptions>,
        cache: {
          max: undefined,
          ttlMs: undefined,
          notDetectedTtlMs: undefined,
          store: undefined,
          secret: undefined,
          storeTimeoutMs: undefined,
        } satisfies AllUndefined<ScanCacheOptions>,
        retryBudget: { capacity: undefined } satisfies AllUndefined<RetryBudgetOptions>,
        circuitBreaker: {
          failureRatio: undefined,
          minimumCalls: undefined,
          windowMs: undefined,
          failureThreshold: undefined,
          cooldownMs: undefined,
          maxCooldownMs: undefined,
          halfOpenProbes: undefined,
        } satisfies AllUndefined<CircuitBreakerOptions>,
        rateLimit: {
          maxPauseMs: undefined,
          requestsPerSecond: undefined,
          burst: undefined,
        } satisfies AllUndefined<RateLimitOptions>,
      });
      expect(nested.toJSON()).toEqual(defaults.toJSON());

      const hash = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
      const scan = { signal: undefined, totalTimeoutMs: undefined } satisfies AllUndefined<ScanOptions>;
      expect((await explicit.scan(hash, scan)).verdict).toBe('not_detected');
      const many = { ...scan, concurrency: undefined, onProgress: undefined } satisfies AllUndefined<ScanManyOptions>;
      const [outcome] = await explicit.scanMany([hash], many);
      expect(
        decide(outcome ?? ({ verdict: 'error', hash, error: new Error('none') } as never), {
          onError: undefined,
          explain: undefined,
        } satisfies AllUndefined<DecisionPolicy>),
      ).toBe('allow');
      const iterable = {
        ...scan,
        concurrency: undefined,
        onProgress: undefined,
      } satisfies AllUndefined<ScanIterableOptions>;
      for await (const item of explicit.scanIterable([hash], iterable)) expect(item.verdict).toBe('not_detected');
      const file = await explicit.scanFile(new URL(import.meta.url).pathname, {
        algorithm: undefined,
        signal: undefined,
        totalTimeoutMs: undefined,
      } satisfies AllUndefined<ScanFileOptions>);
      expect(file.verdict).toBe('not_detected');
    } finally {
      await sandbox.close();
    }
  });

  it('SmsClient and send(): every option undefined gives the defaults', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const sandbox = await startSandbox();
    try {
      const required = {
        baseUrl: sandbox.smsUrl,
        accessKeyId: sandbox.accessKeyId,
        accessKeySecret: sandbox.accessKeySecret,
      };
      const defaults = new SmsClient(required);
      const common: Omit<AllUndefined<CommonClientOptions>, 'baseUrl'> = {
        timeoutMs: undefined,
        totalTimeoutMs: undefined,
        maxResponseBytes: undefined,
        retry: undefined,
        retryBudget: undefined,
        circuitBreaker: undefined,
        rateLimit: undefined,
        fetch: undefined,
        dispatcher: undefined,
        logger: undefined,
        telemetry: undefined,
      };
      const explicit = new SmsClient({
        ...required,
        ...common,
        credentials: undefined,
        method: undefined,
        regionId: undefined,
        version: undefined,
        retryUnknownOutcome: undefined,
        fleet: undefined,
        limits: undefined,
        defaultRegion: undefined,
        destinations: undefined,
      } satisfies Omit<AllUndefined<SmsClientOptions>, keyof typeof required | keyof typeof common>);
      expect(explicit.toJSON()).toEqual(defaults.toJSON());
      const request: SendSmsRequest = {
        phoneNumbers: '13800138000',
        templateCode: 'SMS_100000001',
        templateParam: { code: '1234' },
        signName: undefined,
        outId: undefined,
      };
      const options = {
        method: undefined,
        signal: undefined,
        totalTimeoutMs: undefined,
        caller: undefined,
      } satisfies AllUndefined<SendSmsOptions>;
      expect((await explicit.send(request, options)).code).toBe('OK');
      expect(sandbox.messages[0]?.signName).toBeDefined();
    } finally {
      await sandbox.close();
    }
  });

  it('hashFiles: options undefined', async () => {
    const { hashFiles } = await import('../../src/hashing/index.js');
    const options = {
      algorithms: undefined,
      concurrency: undefined,
      signal: undefined,
    } satisfies AllUndefined<HashFilesOptions>;
    for await (const file of hashFiles([new URL(import.meta.url).pathname], options)) {
      expect(file.error).toBeUndefined();
    }
  });
});
