/**
 * The `fleet` option's types: the plugin form and the deprecated plain form both compile (`npm run typecheck`
 * checks the assignments below), and an editor strikes the deprecated form through (TypeScript's language
 * service, as an editor asks it, reports it as deprecated) while the plugin form is clean.
 */
import { fileURLToPath } from 'node:url';
import type * as fleetEntry from 'hashscan-sms/fleet';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { redisFleet } from '../../src/fleet/index.js';
import type {
  FleetPlugin,
  FleetRedisClient,
  HashScanClientOptions,
  HashScanFleetOptions,
  OtpVerifierOptions,
  SmsClientOptions,
  SmsFleetOptions,
} from '../../src/index.js';

declare const redis: FleetRedisClient;

// Every spelling that compiled before still compiles (never called: `redis` is declared only; tsc checks it).
const spellings = (): unknown[] => {
  const plain: HashScanClientOptions = { fleet: { redis, prefix: 'p', timeoutMs: 50, lookupWaitMs: 0 } };
  const limits: SmsClientOptions = { fleet: { redis, limits: { perRecipient: { perMinute: 1 } } } };
  const otp: Pick<OtpVerifierOptions, 'fleet'> = { fleet: { redis, prefix: 'p' } };
  const fleet = redisFleet({ redis, prefix: 'p', lookupWaitMs: 0 });
  const plugin: [HashScanClientOptions, SmsClientOptions, Pick<OtpVerifierOptions, 'fleet'>] = [
    { fleet },
    { fleet, limits: { perRecipient: { perMinute: 1 } } },
    { fleet },
  ];
  return [plain, limits, otp, plugin];
};

describe('the fleet option types', () => {
  it('take the plugin and the deprecated plain forms; one FleetPlugin type for both entries', () => {
    expectTypeOf(spellings).returns.toEqualTypeOf<unknown[]>();
    expectTypeOf<fleetEntry.FleetPlugin>().toEqualTypeOf<FleetPlugin>();
    expectTypeOf(redisFleet).returns.toEqualTypeOf<FleetPlugin>();
    expectTypeOf<FleetPlugin>().toMatchTypeOf<NonNullable<HashScanClientOptions['fleet']>>();
    expectTypeOf<HashScanFleetOptions>().toMatchTypeOf<NonNullable<HashScanClientOptions['fleet']>>();
    expectTypeOf<SmsFleetOptions>().toMatchTypeOf<NonNullable<SmsClientOptions['fleet']>>();
    expectTypeOf<fleetEntry.FleetRedisClient>().toEqualTypeOf<FleetRedisClient>();
  });
});

/** The deprecation suggestions an editor shows in `source`, as `line: text` of the flagged code. */
function deprecatedIn(source: string): string[] {
  const file = fileURLToPath(new URL('./__fleet-editor__.ts', import.meta.url));
  const configPath = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
  const config = ts.readConfigFile(configPath, ts.sys.readFile).config as object;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, fileURLToPath(new URL('../../', import.meta.url)));
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => [file],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => {
      const text = name === file ? source : ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => process.cwd(),
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: (name) => name === file || ts.sys.fileExists(name),
    readFile: (name) => (name === file ? source : ts.sys.readFile(name)),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host);
  return service
    .getSuggestionDiagnostics(file)
    .filter((diagnostic) => diagnostic.reportsDeprecated)
    .map((diagnostic) => source.slice(diagnostic.start, (diagnostic.start ?? 0) + (diagnostic.length ?? 0)));
}

describe('in an editor', () => {
  const header = [
    "import { HashScanClient, OtpVerifier, SmsClient, type FleetRedisClient } from 'hashscan-sms'",
    "import { redisFleet } from 'hashscan-sms/fleet'",
    'declare const redis: FleetRedisClient',
    'declare const sms: SmsClient',
  ].join('\n');

  it('strikes through every client made with the deprecated fleet: { redis } form, nothing with the plugin', () => {
    // One language service for both forms (it is what costs): the plugin lines come last.
    const flagged = deprecatedIn(
      [
        header,
        "new HashScanClient({ fleet: { redis, prefix: 'p' } })",
        'new SmsClient({ fleet: { redis } })',
        "new OtpVerifier({ sms, templateCode: 'T', fleet: { redis } })",
        'const fleet = redisFleet({ redis })',
        'new HashScanClient({ fleet })',
        'new SmsClient({ fleet })',
        "new OtpVerifier({ sms, templateCode: 'T', fleet })",
      ].join('\n'),
    );
    expect(flagged).toEqual(['HashScanClient', 'SmsClient', 'OtpVerifier']);
  }, 60_000);
});
