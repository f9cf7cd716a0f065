/** Benchmark 4: computeSignature vs the vendor's getRPCSignature on the same parameter sets. */
import type { Settings } from './lib/config.js';
import { interleave, measure } from './lib/interleave.js';
import type { Sdk } from './lib/sdk.js';
import { signingCases } from './lib/sms-params.js';
import { ratio, type Summary, summarize } from './lib/stats.js';
import { loadVendorSigner } from './lib/vendor.js';

export interface SigningResult {
  readonly parameterSets: number;
  readonly operationsPerRound: number;
  /** Every parameter set signs to the same string with both. */
  readonly identicalOutput: boolean;
  readonly opsPerSecond: { readonly sdk: Summary; readonly vendor: Summary };
  /** SDK ops/s over vendor ops/s (wall time), per round. */
  readonly sdkOverVendor: Summary;
  /** The same over CPU time (vendor CPU / SDK CPU), per round: the steady figure. Target >= 1.5. */
  readonly sdkOverVendorCpu: Summary;
}

export async function signing(sdk: Sdk, settings: Settings): Promise<SigningResult> {
  const { signingOps: n, rounds } = settings;
  const vendor = await loadVendorSigner();
  const cases = signingCases(64);
  const mismatches = cases.filter(
    ({ method, params, secret }) => sdk.computeSignature(method, params, secret) !== vendor(params, method, secret),
  );
  let sink = 0;
  const contenders = {
    sdk: () =>
      measure(async () => {
        for (let i = 0; i < n; i++) {
          const { method, params, secret } = cases[i % cases.length] as (typeof cases)[number];
          sink += sdk.computeSignature(method, params, secret).length;
        }
      }),
    vendor: () =>
      measure(async () => {
        for (let i = 0; i < n; i++) {
          const { method, params, secret } = cases[i % cases.length] as (typeof cases)[number];
          sink += vendor(params, method, secret).length;
        }
      }),
  };
  await interleave(1, contenders);
  const runs = await interleave(rounds, contenders);
  const ms = { sdk: runs.sdk.map((run) => run.ms), vendor: runs.vendor.map((run) => run.ms) };
  const cpu = { sdk: runs.sdk.map((run) => run.cpuUs), vendor: runs.vendor.map((run) => run.cpuUs) };
  if (sink === 0) throw new Error('nothing was signed');
  const ops = (values: number[]) =>
    summarize(
      values.map((value) => (n / value) * 1000),
      0,
    );
  return {
    parameterSets: cases.length,
    operationsPerRound: n,
    identicalOutput: mismatches.length === 0,
    opsPerSecond: { sdk: ops(ms.sdk), vendor: ops(ms.vendor) },
    sdkOverVendor: ratio(ms.vendor, ms.sdk),
    sdkOverVendorCpu: ratio(cpu.vendor, cpu.sdk),
  };
}
