import { UsageError } from '../../usage-error.js';

/** A `scan` argument naming objects: every key of `bucket` that starts with `prefix`. */
export interface S3Location {
  readonly bucket: string;
  /** `''`: the whole bucket. */
  readonly prefix: string;
}

const SCHEME = 's3://';

/** Whether a `scan` argument names objects (`s3://…`) rather than a local path. */
export function isS3Argument(argument: string): boolean {
  return argument.startsWith(SCHEME);
}

// Bucket names of S3 and of the stores that follow its rules (3 to 63 of a-z, 0-9, '.', '-'), with
// upper case and '_' let through for older buckets and other stores: the store has the last word.
const BUCKET = /^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/;

/** `s3://bucket/prefix` → its parts; anything else is a usage error (exit 64), before any request. */
export function parseS3Argument(argument: string): S3Location {
  const rest = argument.slice(SCHEME.length);
  const slash = rest.indexOf('/');
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  const prefix = slash === -1 ? '' : rest.slice(slash + 1);
  if (!BUCKET.test(bucket)) {
    throw new UsageError(
      `scan: ${JSON.stringify(argument)} does not name a bucket: write s3://BUCKET or s3://BUCKET/PREFIX\nRun \`hashscan-sms scan --help\` for usage.`,
    );
  }
  return { bucket, prefix };
}

/** The `s3://` name of an object or a prefix, as rows show it. */
export function s3Name(bucket: string, key: string): string {
  return `${SCHEME}${bucket}/${key}`;
}
