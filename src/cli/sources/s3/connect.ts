import type { S3Client } from '@aws-sdk/client-s3';
import { loadOptional } from '../../optional-package.js';
import { UsageError } from '../../usage-error.js';

/** The parts of the AWS SDK the scan uses. */
type S3Sdk = Pick<
  typeof import('@aws-sdk/client-s3'),
  'S3Client' | 'ListObjectsV2Command' | 'HeadObjectCommand' | 'GetObjectCommand'
>;

/** A client for the store, and the SDK it came from. */
export interface S3Connection {
  readonly client: S3Client;
  readonly sdk: S3Sdk;
  close(): void;
}

/** For a custom endpoint that names none, and for AWS when no profile or variable does (with region redirects followed). */
const DEFAULT_REGION = 'us-east-1';

/**
 * The endpoint: `--endpoint-url` (the aws CLI's flag), else `AWS_ENDPOINT_URL_S3`, else
 * `AWS_ENDPOINT_URL`; `undefined`: AWS itself. A URL that is not http(s) is a usage error.
 */
export function endpointOf(flag: string | undefined, env: NodeJS.ProcessEnv): URL | undefined {
  const [name, value] =
    flag !== undefined
      ? ['--endpoint-url', flag]
      : env.AWS_ENDPOINT_URL_S3
        ? ['AWS_ENDPOINT_URL_S3', env.AWS_ENDPOINT_URL_S3]
        : ['AWS_ENDPOINT_URL', env.AWS_ENDPOINT_URL];
  if (value === undefined || value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`scan: ${name} must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`scan: ${name} must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
  return url;
}

/**
 * Loads `@aws-sdk/client-s3` (an optional peer: only an `s3://` argument needs it) and builds a
 * client: credentials from the SDK's standard chain (variables, profiles, SSO, container and
 * instance roles), path-style addressing for a custom endpoint (MinIO, Ceph and most others serve
 * no bucket subdomains), and the region from the variables or profile, else `us-east-1`.
 */
export async function connectS3(endpoint: URL | undefined): Promise<S3Connection> {
  const sdk: S3Sdk = await loadOptional('@aws-sdk/client-s3', () => import('@aws-sdk/client-s3'), 'scan s3://…');
  const base = {
    ...(endpoint === undefined ? { followRegionRedirects: true } : { endpoint: endpoint.href, forcePathStyle: true }),
  };
  let client = new sdk.S3Client(base);
  try {
    await client.config.region();
  } catch {
    client.destroy();
    client = new sdk.S3Client({ ...base, region: DEFAULT_REGION });
  }
  const connected = client;
  return { client: connected, sdk, close: () => connected.destroy() };
}
