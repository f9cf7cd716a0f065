/**
 * The access modes one SMS address serves (spec part 4). Only `aksk` is
 * implemented by the sandbox; the others are recognised and declined.
 */
export type SmsMode = 'third-party-gateway' | 'second-vendor' | 'aksk' | 'syskey';

/**
 * Where a request goes: a mode, `method-not-allowed` (row 6 of the table),
 * or `unknown-action` for a GET whose `Action` is present but not `SendSms`
 * (the spec does not say; the sandbox answers `InvalidAction.NotFound`).
 */
export type SmsRoute = SmsMode | 'method-not-allowed' | 'unknown-action';

const GATEWAY_PARAMS = ['u', 'p', 'm', 'c'] as const;
const SECOND_VENDOR_VERSION = '2021-01-11';

/**
 * Applies the routing table of spec part 4, first matching row wins:
 * 1. all of `u`, `p`, `m`, `c` → third-party gateway (whatever the method);
 * 2. `Version=2021-01-11`, or a header `X-TC-Action` / `X-TC-Version` → second vendor;
 * 3. GET with `Action=SendSms` → AK/SK;
 * 4. POST → AK/SK;
 * 5. GET without `Action` → SysKey;
 * 6. any other method → 405.
 * An `Action` that is present but empty counts as present.
 *
 * @example
 * ```ts
 * routeSmsRequest('GET', { Action: 'SendSms' }, new Headers()) // 'aksk'
 * routeSmsRequest('PUT', {}, new Headers())                    // 'method-not-allowed'
 * ```
 */
export function routeSmsRequest(method: string, params: Readonly<Record<string, string>>, headers: Headers): SmsRoute {
  const has = (name: string): boolean => Object.hasOwn(params, name);
  if (GATEWAY_PARAMS.every(has)) return 'third-party-gateway';
  if (params.Version === SECOND_VENDOR_VERSION || headers.has('x-tc-action') || headers.has('x-tc-version')) {
    return 'second-vendor';
  }
  if (method === 'POST') return 'aksk';
  if (method !== 'GET') return 'method-not-allowed';
  if (!has('Action')) return 'syskey';
  return params.Action === 'SendSms' ? 'aksk' : 'unknown-action';
}
