import { describe, expect, it } from 'vitest';
import type { DispatchOptions, UndiciDispatcher } from '../../../src/transport/http/dispatcher.js';
import { classifyNetworkFailure } from '../../../src/transport/http/network-failure.js';
import { DispatchFailure, requestWrittenOf, trackRequestWrites } from '../../../src/transport/http/request-written.js';

const withCode = (code: string): Error => Object.assign(new Error('boom'), { code });
const fetchFailed = (code: string) => new TypeError('fetch failed', { cause: withCode(code) });

describe('TLS codes: only handshake failures prove nothing was written', () => {
  it.each([
    ['ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC', 'unknown'],
    ['ERR_SSL_BAD_RECORD_TYPE', 'unknown'],
    ['ERR_SSL_PACKET_LENGTH_TOO_LONG', 'unknown'],
    // Also what a garbage record header mid-response gives: ambiguous, so not `connect` without the dispatcher's fact.
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'unknown'],
    ['ERR_SSL_UNEXPECTED_EOF_WHILE_READING', 'unknown'],
    ['ERR_SSL_SSLV3_ALERT_BAD_RECORD_MAC', 'unknown'],
    ['ERR_TLS_SOMETHING_NEW', 'unknown'],
    ['ERR_SSL_UNSUPPORTED_PROTOCOL', 'connect'],
    ['ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', 'connect'],
    ['ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'connect'],
    ['ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', 'connect'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'connect'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'connect'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'connect'],
    ['CERT_HAS_EXPIRED', 'connect'],
  ])('%s → %s', (code, phase) => {
    const failure = classifyNetworkFailure(fetchFailed(code));
    expect(failure).toMatchObject({ phase, systemCode: code });
    expect(failure.description).toContain(
      phase === 'connect' ? 'TLS handshake failed' : 'may have carried the request',
    );
  });
});

describe("the dispatcher's fact decides over the code", () => {
  it('not written: even a reset is connect', () => {
    const failure = classifyNetworkFailure(new DispatchFailure('fetch failed', withCode('ECONNRESET'), false));
    expect(failure).toMatchObject({ phase: 'connect', systemCode: 'ECONNRESET' });
    expect(failure.description).toBe('connection lost (ECONNRESET) before the request was written');
  });

  it('written: even a handshake-looking code is unknown', () => {
    const failure = classifyNetworkFailure(new DispatchFailure('terminated', withCode('CERT_HAS_EXPIRED'), true));
    expect(failure.phase).toBe('unknown');
    expect(failure.description).toContain('after the request was handed to the connection');
  });

  it('agreeing or absent facts leave the classification as it is', () => {
    expect(classifyNetworkFailure(new DispatchFailure('fetch failed', withCode('ENOTFOUND'), false))).toMatchObject({
      phase: 'connect',
      description: 'DNS lookup failed (ENOTFOUND)',
    });
    expect(classifyNetworkFailure(new DispatchFailure('fetch failed', withCode('ENOTFOUND'), undefined)).phase).toBe(
      'connect',
    );
  });

  it('a fetch body that broke off (`terminated`) proves the request was written', () => {
    expect(requestWrittenOf(new TypeError('terminated', { cause: withCode('CERT_HAS_EXPIRED') }))).toBe(true);
    expect(classifyNetworkFailure(new TypeError('terminated', { cause: withCode('CERT_HAS_EXPIRED') })).phase).toBe(
      'unknown',
    );
    expect(requestWrittenOf(fetchFailed('ECONNRESET'))).toBeUndefined();
    expect(requestWrittenOf('not an error')).toBeUndefined();
  });

  it('looks like the error fetch throws', () => {
    const error = new DispatchFailure('fetch failed', withCode('ECONNREFUSED'), false);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.name).toBe('TypeError');
    expect(error.message).toBe('fetch failed');
  });
});

describe('trackRequestWrites', () => {
  const options = {} as DispatchOptions;

  it('a dispatcher without compose is used as is, and has no facts', () => {
    const dispatcher: UndiciDispatcher = { request: () => Promise.reject(new Error('unused')) };
    const tracked = trackRequestWrites(dispatcher);
    expect(tracked.dispatcher).toBe(dispatcher);
    expect(tracked.written(options)).toBeUndefined();
  });

  type Handler = Record<string, ((...args: unknown[]) => unknown) | string>;
  type Dispatch = (opts: object, handler: Handler) => boolean;
  /** A dispatcher with `compose`, whose socket calls `events` on each handler in turn. */
  const composable = (events: [string, unknown][]) => {
    let dispatch: Dispatch = () => false;
    const dispatcher = {
      request: () => Promise.reject(new Error('unused')),
      compose(interceptor: (inner: Dispatch) => Dispatch) {
        dispatch = interceptor((_opts, handler) => {
          for (const [event, arg] of events) (handler[event] as (arg: unknown) => void)(arg);
          return true;
        });
        return this;
      },
    };
    const tracked = trackRequestWrites(dispatcher);
    return { tracked, dispatch: (opts: object, handler: Handler) => dispatch(opts, handler) };
  };
  const recordingHandler = (seen: unknown[]): Handler => {
    const record = function (this: { name: string }, arg: unknown) {
      seen.push(this.name, arg);
    };
    return { name: 'handler', onRequestStart: record, onConnect: record, onResponseEnd: record, onError: record };
  };

  it('marks a request once its handler hears onRequestStart, and forwards every call bound to the handler', () => {
    const { tracked, dispatch } = composable([
      ['onRequestStart', 'controller'],
      ['onResponseEnd', 'trailers'],
    ]);
    const seen: unknown[] = [];
    const sent = {};
    expect(tracked.written(sent as DispatchOptions)).toBeUndefined();
    expect(dispatch(sent, recordingHandler(seen))).toBe(true);
    expect(tracked.written(sent as DispatchOptions)).toBe(true);
    expect(seen).toEqual(['handler', 'controller', 'handler', 'trailers']);
  });

  it('legacy handlers: onConnect marks it too', () => {
    const { tracked, dispatch } = composable([['onConnect', 'abort']]);
    const sent = {};
    dispatch(sent, recordingHandler([]));
    expect(tracked.written(sent as DispatchOptions)).toBe(true);
  });

  it('a request that failed before reaching a socket is marked not written', () => {
    const { tracked, dispatch } = composable([['onError', new Error('connect failed')]]);
    const seen: unknown[] = [];
    const failed = {};
    dispatch(failed, recordingHandler(seen));
    expect(tracked.written(failed as DispatchOptions)).toBe(false);
    expect(seen[0]).toBe('handler');
  });
});

describe('SmsClient over an undici MockAgent (classified by code, as on a real socket)', () => {
  const errorWith = (code: string) => Object.assign(new Error(code), { code });

  it.each([
    ['ECONNRESET', 'OUTCOME_UNKNOWN', 'unknown', 1],
    ['ECONNREFUSED', 'NETWORK', 'not_sent', 3],
  ])('replyWithError(%s) → %s', async (code, smsCode, outcome, attempts) => {
    const { MockAgent } = await import('undici');
    const { SmsClient } = await import('../../../src/sms/index.js');
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get('https://sms.test').intercept({ path: '/', method: 'POST' }).replyWithError(errorWith(code)).times(3);
    const client = new SmsClient({
      accessKeyId: 'testKeyId0123',
      accessKeySecret: 'testSecret4567',
      baseUrl: 'https://sms.test',
      dispatcher: agent,
      retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5 },
    });
    const error = await client
      .send({ phoneNumbers: '13800000000', templateCode: 'SMS_1', templateParam: {} })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: smsCode, outcome, attempts });
    await agent.close();
  });
});
