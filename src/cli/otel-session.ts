/**
 * `--otel`: starts the OpenTelemetry Node SDK (`@opentelemetry/sdk-node`, an
 * optional install of the user's) before a command runs, so its lookups and
 * sends go out as spans and metrics to wherever the standard `OTEL_*`
 * variables say (OTLP by default), and flushes them before the process
 * exits. Imports the telemetry room's API hand-over only.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type OtelApi, useOtelApi } from '../telemetry/otel-api.js';
import { UsageError } from './usage-error.js';

/** How long the final flush may take before the command exits anyway. */
const SHUTDOWN_LIMIT_MS = 10_000;

/** The part of `NodeSDK` used here. */
interface NodeSdk {
  start(): void;
  shutdown(): Promise<void>;
}

type NodeSdkConstructor = new (configuration: { serviceName?: string }) => NodeSdk;

/** A started SDK: `shutdown()` flushes what is pending (bounded), and never throws. */
export interface OtelSession {
  shutdown(): Promise<string | undefined>;
}

/** Removes `--otel` from the arguments (before a lone `--`); says whether it was there. */
export function takeOtelFlag(argv: readonly string[]): { argv: string[]; otel: boolean } {
  const end = argv.indexOf('--');
  const head = end < 0 ? argv : argv.slice(0, end);
  const kept = head.filter((arg) => arg !== '--otel');
  return {
    argv: end < 0 ? kept : [...kept, ...argv.slice(end)],
    otel: kept.length !== head.length,
  };
}

/** Where `name` resolves from: the working directory's project first, then this package's own place. */
function resolveFrom(name: string, cwd: string): string | undefined {
  for (const base of [join(cwd, 'package.json'), import.meta.url]) {
    try {
      return createRequire(base).resolve(name);
    } catch {
      // Not installed there.
    }
  }
  return undefined;
}

/** Starts the SDK; a usage error when `@opentelemetry/sdk-node` is not installed. */
export async function startOtel(env: NodeJS.ProcessEnv, cwd: string): Promise<OtelSession> {
  const sdkPath = resolveFrom('@opentelemetry/sdk-node', cwd);
  if (sdkPath === undefined) {
    throw new UsageError(
      '--otel needs the OpenTelemetry Node SDK: npm install @opentelemetry/sdk-node (0.223 and older run on Node 20; later ones need Node 22.15)',
    );
  }
  const load = createRequire(sdkPath);
  // The API the SDK registers its providers with: the clients must use the same one.
  useOtelApi(load('@opentelemetry/api') as OtelApi);
  const { NodeSDK } = (await import(pathToFileURL(sdkPath).href)) as { NodeSDK: NodeSdkConstructor };
  const sdk = new NodeSDK(env.OTEL_SERVICE_NAME === undefined ? { serviceName: 'hashscan-sms' } : {});
  sdk.start();
  return {
    shutdown: async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const limit = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`gave up flushing after ${SHUTDOWN_LIMIT_MS} ms`), SHUTDOWN_LIMIT_MS);
      });
      try {
        return await Promise.race([sdk.shutdown().then(() => undefined), limit]);
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
