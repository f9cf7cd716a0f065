/** `1 file`, `2 files`: a count and its noun, singular for exactly one. */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}
