/** HTTP 408, 429 and 5xx: statuses that may change on a later try. Others will not. */
export function isTransientStatus(status: number | undefined): boolean {
  return status === 408 || status === 429 || (status !== undefined && status >= 500);
}
