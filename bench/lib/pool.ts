/** Runs `work` for each item, `concurrency` at a time (independent callers, not a batch). */
export async function pool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}
