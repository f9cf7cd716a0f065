// The fail-closed catalogue: answers no client may read as "not detected", and the typed error each
// must give, the same on every runtime. Plain data and fetch-free code: the Node, Bun and Deno smoke
// serves it over node:http, the Worker's Miniflare serves it through its outbound service.

/** One hash per answer (hex of the right length), so the server picks the answer from the URL alone. */
const hash = (digit) => digit.repeat(64);

export const CATALOGUE = [
  {
    name: 'HTTP 500',
    hash: hash('1'),
    status: 500,
    type: 'application/json',
    body: '{"status":"error","message":"internal error"}',
    code: 'HTTP_STATUS',
  },
  {
    name: 'is_virus as a string',
    hash: hash('2'),
    status: 200,
    type: 'application/json',
    body: '{"status":"success","is_virus":"false","message":"not detected"}',
    code: 'INVALID_RESPONSE',
  },
  {
    name: 'an extra field',
    hash: hash('3'),
    status: 200,
    type: 'application/json',
    body: '{"status":"success","is_virus":false,"message":"not detected","error_code":"QUOTA_EXCEEDED"}',
    code: 'INVALID_RESPONSE',
  },
  {
    name: 'truncated JSON',
    hash: hash('4'),
    status: 200,
    type: 'application/json',
    body: '{"status":"success","is_virus":fal',
    code: 'INVALID_JSON',
  },
  {
    name: 'HTML with 200',
    hash: hash('5'),
    status: 200,
    type: 'text/html',
    body: '<!doctype html><html><body>Welcome to the captive portal</body></html>',
    code: 'INVALID_JSON',
  },
];

/** A normal not-detected answer, for any hash outside the catalogue. */
export const CLEAN = {
  status: 200,
  type: 'application/json',
  body: '{"status":"success","is_virus":false,"message":"not detected"}',
};

/** The answer for a request URL of the lookup service (`/hash_scan?api_key=…&hash=…`). */
export function answerFor(url) {
  const wanted = new URL(url).searchParams.get('hash');
  return CATALOGUE.find((entry) => entry.hash === wanted) ?? CLEAN;
}

/**
 * Scans every hash of the catalogue with `client` and returns what each gave: the error's class
 * name (as branded by the package: `instanceof` across copies) and code, or the verdict when no
 * error was thrown (a failure of the rule).
 */
export async function runCatalogue(client, { HashScanError }) {
  const results = [];
  for (const entry of CATALOGUE) {
    try {
      const result = await client.scan(entry.hash);
      results.push({ name: entry.name, verdict: result.verdict });
    } catch (error) {
      results.push({
        name: entry.name,
        error: error instanceof HashScanError ? 'HashScanError' : String(error?.name),
        code: error?.code,
      });
    }
  }
  return results;
}

/** What `runCatalogue` must give on every runtime. */
export const EXPECTED = CATALOGUE.map((entry) => ({ name: entry.name, error: 'HashScanError', code: entry.code }));
