/**
 * Fleet benchmark, part 3: a partial fault and a mixed-fault soak (issue 21).
 * Does the breaker keep valid answers flowing when only part of the world is
 * broken? Each contender is a fresh client with default options (the soak
 * sets `timeoutMs` so its stalls are time-outs); the service's faults are
 * fixed per hash and attempt, so every contender meets the same ones.
 */
import { type FaultPlan, type FaultService, mixedFault, partialFault, startFaultService } from './fault-service.js';
import { pool } from './pool.js';
import type { Sdk } from './sdk.js';
import { type Summary, summarize } from './stats.js';

export interface FaultSettings {
  readonly rounds: number;
  readonly lookups: number;
  readonly concurrency: number;
  readonly latencyMs: number;
}

/** Figures of one contender, over rounds. */
interface FaultFigures {
  /** Lookups that could have answered a verdict (partial: hashes outside the failing tenth; soak: verdicts without a breaker). */
  readonly valid: Summary;
  /** Of those, the share (%) that came back with their verdict. */
  readonly keptPercent: Summary;
  /** Lookups refused with CIRCUIT_OPEN. */
  readonly circuitOpen: Summary;
  /** HTTP requests the service received. */
  readonly requests: Summary;
  readonly wallMs: Summary;
}

export interface FaultResults {
  readonly settings: FaultSettings;
  readonly partial: Record<string, FaultFigures>;
  readonly soak: Record<string, FaultFigures>;
}

type Client = InstanceType<Sdk['HashScanClient']>;

interface Run {
  verdicts: number;
  circuitOpen: number;
  requests: number;
  wallMs: number;
}

async function run(service: FaultService, client: Client, hashes: readonly string[], concurrency: number) {
  service.reset();
  service.requests = 0;
  const answered = new Set<string>();
  let circuitOpen = 0;
  const started = performance.now();
  await pool(hashes, concurrency, async (hash) => {
    const outcome = await client.scanOutcome(hash);
    if (outcome.verdict === 'not_detected') answered.add(hash);
    else if (outcome.verdict === 'error' && outcome.error.code === 'CIRCUIT_OPEN') circuitOpen += 1;
  });
  const figures: Run = {
    verdicts: answered.size,
    circuitOpen,
    requests: service.requests,
    wallMs: performance.now() - started,
  };
  return { figures, answered };
}

function summarizeRuns(valid: number[], runs: Run[]): FaultFigures {
  return {
    valid: summarize(valid, 0),
    keptPercent: summarize(
      runs.map((r, i) => (100 * r.verdicts) / (valid[i] as number)),
      2,
    ),
    circuitOpen: summarize(
      runs.map((r) => r.circuitOpen),
      0,
    ),
    requests: summarize(
      runs.map((r) => r.requests),
      0,
    ),
    wallMs: summarize(
      runs.map((r) => r.wallMs),
      0,
    ),
  };
}

async function scenario(
  sdk: Sdk,
  settings: FaultSettings,
  plan: FaultPlan,
  options: Record<string, unknown>,
  validOf: (hashes: readonly string[], baseline: Set<string>) => number,
): Promise<Record<string, FaultFigures>> {
  const service = await startFaultService(plan, settings.latencyMs, 1_500);
  const hashes = Array.from({ length: settings.lookups }, (_, i) => i.toString(16).padStart(64, '0'));
  const contenders: Record<string, Record<string, unknown>> = {
    'defaults (ratio breaker)': {},
    'circuitBreaker: false': { circuitBreaker: false },
  };
  const runs: Record<string, Run[]> = {};
  const valid: number[] = [];
  try {
    for (let round = 0; round < settings.rounds; round++) {
      const names = Object.keys(contenders);
      const answeredBy: Record<string, Set<string>> = {};
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + round) % names.length] as string;
        const client = new sdk.HashScanClient({
          apiKey: 'fault-bench-key',
          baseUrl: service.url,
          ...options,
          ...contenders[name],
        });
        const { figures, answered } = await run(service, client, hashes, settings.concurrency);
        runs[name] ??= [];
        runs[name].push(figures);
        answeredBy[name] = answered;
      }
      valid.push(validOf(hashes, answeredBy['circuitBreaker: false'] ?? new Set()));
    }
  } finally {
    await service.close();
  }
  return Object.fromEntries(Object.entries(runs).map(([name, r]) => [name, summarizeRuns(valid, r)]));
}

export async function faultScenarios(sdk: Sdk, settings: FaultSettings): Promise<FaultResults> {
  const partial = await scenario(
    sdk,
    settings,
    partialFault,
    {},
    (hashes) => hashes.filter((hash) => partialFault(hash, 1) === 'ok').length,
  );
  const soak = await scenario(sdk, settings, mixedFault, { timeoutMs: 1_000 }, (_hashes, baseline) => baseline.size);
  return { settings, partial, soak };
}

/** The figures as Markdown tables. */
export function faultTable(results: FaultResults): string {
  const cell = (s: Summary, unit = ''): string =>
    s.samples.length > 1 ? `${s.median}${unit} (${s.min}–${s.max})` : `${s.median}${unit}`;
  const rows = (part: Record<string, FaultFigures>): string[] => [
    '| client | valid answers | kept their verdict | CIRCUIT_OPEN | requests sent | wall time |',
    '|---|---|---|---|---|---|',
    ...Object.entries(part).map(
      ([name, f]) =>
        `| ${name} | ${cell(f.valid)} | ${cell(f.keptPercent, ' %')} | ${cell(f.circuitOpen)} | ${cell(f.requests)} | ${cell(f.wallMs, ' ms')} |`,
    ),
  ];
  const s = results.settings;
  return [
    `Partial fault: 10 % of hashes always answer HTTP 500, the rest answer after ${s.latencyMs} ms; ${s.lookups} lookups of distinct hashes from ${s.concurrency} concurrent callers, default options:`,
    '',
    ...rows(results.partial),
    '',
    `Mixed-fault soak (a 20 % mix: 4 % of hashes always 500; per request 4 % 502/503, 4 % resets, 4 % stalls of 1.5 s, 4 % bad bodies), same load, \`timeoutMs: 1000\`; valid answers = verdicts the client without a breaker got:`,
    '',
    ...rows(results.soak),
  ].join('\n');
}
