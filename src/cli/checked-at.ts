/**
 * `checkedAt` of a row: when its answer was obtained, ISO 8601 to the
 * second in UTC (`2026-11-27T07:43:39Z`). The answer of a hash is only the
 * state "at the moment of the query" (the service's spec): every row says
 * which moment that was, a stored answer its original one.
 */
export function checkedAt(epochMs: number): string {
  const second = Math.floor(epochMs / 1_000);
  // Every row of a second has the same text: it is formatted once per second, not once per row.
  if (second !== lastSecond) {
    lastText = `${new Date(second * 1_000).toISOString().slice(0, 19)}Z`;
    lastSecond = second;
  }
  return lastText;
}

let lastSecond = Number.NaN;
let lastText = '';
