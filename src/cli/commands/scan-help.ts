/** `scan --help`: what the command does, its flags by group, and examples. */
import { verdictHelp } from '../command.js';
import { INVENTORY_HELP } from '../inventory/flags.js';
import { REDIS_HELP } from '../queue/fleet-flag.js';

export const HELP = `Usage: hashscan-sms scan [options] <path | s3://bucket/prefix …>
       hashscan-sms scan [options] --input LIST
       find DIR -type f -print0 | hashscan-sms scan [options] -0

Hashes every file under the given files and folders (recursively, each file
read once) and looks the hashes up, repeated contents asked once. Each file is
reported with its verdict (malicious, not_detected, error) and decision
(block, allow, review). Unreadable files are reported as review, never skipped
in silence, and so is a file that changed while it was read (FILE_CHANGED).
Symbolic links below the named paths are not followed unless -L.

Input:
  -i, --input LIST      read the paths to scan from LIST (\`-\` for stdin), one per
                        line, each taken as its exact bytes (every byte but the \\n);
                        a listed folder is walked as if named on the command line
  -0, --null            the list is NUL-separated (find -print0), for names holding
                        a newline; without --input, read from stdin
  A listed path that is missing, unreadable or not UTF-8 is its own row (review or
  its verdict), never the end of the batch; an empty list is said so on stderr.

Scanning:
  -a, --algorithm ALG   sha256 (default), sha1 or md5; repeat for several digests
                        from one read (the first is looked up), e.g. -a sha256 -a md5
  -L, --follow-symlinks follow symbolic links (loops are detected and reported)
  --hash-concurrency N  files read at once (default 8), objects checked at once (default 16)

Object storage (s3://bucket/prefix; needs the optional package @aws-sdk/client-s3):
  --endpoint-url URL    an S3-compatible store (MinIO, Ceph, R2; path-style addressing);
                        default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS S3.
                        Credentials and region: the AWS SDK's standard chain (AWS_REGION,
                        else us-east-1). An object's stored SHA-256 (FULL_OBJECT checksum)
                        or MD5 (a single-part, non-KMS, non-SSE-C ETag) is looked up
                        without downloading; any other object is downloaded and hashed.
                        Each row says which (digestSource); a listing cut short exits 2
                        (with --inventory it marks nothing under it gone).

${INVENTORY_HELP}

${verdictHelp({ key: 'path', when: 'every row' })}
${REDIS_HELP}

Examples:
  hashscan-sms scan --sandbox ./examples
  HASHSCAN_API_KEY=… HASHSCAN_BASE_URL=https://… hashscan-sms scan /srv/uploads
  hashscan-sms scan -f ndjson -a sha256 -a md5 /srv/uploads > report.ndjson
  hashscan-sms scan -f csv --fail-on block /srv/uploads > report.csv || alert
  hashscan-sms scan --endpoint-url http://127.0.0.1:9000 -f ndjson s3://uploads/2026/
  hashscan-sms scan --inventory /var/lib/hashscan/uploads.db --changes-only --fail-on new-block /srv/uploads`;
