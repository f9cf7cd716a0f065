import type { HashAlgorithm } from '../../hashing/index.js';
import { connectS3, endpointOf } from './s3/connect.js';
import type { Coverage, ObjectResult } from './s3/object-digest.js';
import { isS3Argument, parseS3Argument, type S3Location } from './s3/s3-url.js';
import { describeCoverage, emptyCoverage, type ObjectRecall, scanObjects } from './s3/scan-objects.js';

/** `scan`'s arguments sorted by source: local paths, and `s3://` locations. */
export interface ScanArguments {
  readonly paths: readonly string[];
  readonly objects: readonly string[];
}

/** Sorts the arguments, and checks every `s3://` one before anything is sent. */
export function sortArguments(positionals: readonly string[]): ScanArguments {
  const objects = positionals.filter(isS3Argument);
  for (const argument of objects) parseS3Argument(argument);
  return { paths: positionals.filter((argument) => !isS3Argument(argument)), objects };
}

/** The objects of a run's `s3://` arguments, and how their digests were had. */
export interface ObjectSource {
  results(options: {
    readonly algorithms: readonly HashAlgorithm[];
    readonly concurrency: number;
    readonly signal: AbortSignal;
    /** With `--inventory`: objects whose listed identity is the recorded one are not looked at. */
    readonly recall?: ObjectRecall | undefined;
  }): AsyncGenerator<ObjectResult, void, undefined>;
  /** The `s3://` arguments, parsed. */
  readonly locations: readonly S3Location[];
  readonly coverage: Coverage;
  /** The run summary's line: objects by digest source, bytes downloaded, listings cut short. */
  describe(): string;
  close(): void;
}

/**
 * Connects to the store for the `s3://` arguments (loading the optional SDK: a usage error when it
 * is absent or the endpoint is not a URL), or `undefined` when there are none.
 */
export async function openObjectSource(
  objects: readonly string[],
  endpointFlag: string | undefined,
  env: NodeJS.ProcessEnv,
  inventory = false,
): Promise<ObjectSource | undefined> {
  if (objects.length === 0) return undefined;
  const locations = objects.map(parseS3Argument);
  const connection = await connectS3(endpointOf(endpointFlag, env));
  const coverage = emptyCoverage(inventory);
  return {
    locations,
    results: (options) => scanObjects(connection, locations, options, coverage),
    coverage,
    describe: () => describeCoverage(coverage),
    close: () => connection.close(),
  };
}
