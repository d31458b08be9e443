/** Several async generators read at once, their values in the order they come. */

/**
 * Yields `[index, value]` for the values of `sources` as each arrives, until all are done. Each
 * source is asked for its next value only after the last one was taken, so a slow reader holds
 * every source back. Ending the merged generator early (`return()`) ends every source; a source
 * that throws ends the others and the error is thrown on.
 */
export async function* mergeStreams<T>(
  sources: readonly AsyncGenerator<T>[],
): AsyncGenerator<[number, T]> {
  type Pulled = { index: number; result: IteratorResult<T> };
  const pending = new Map<number, Promise<Pulled>>();
  const pull = (index: number) =>
    pending.set(index, sources[index].next().then((result) => ({ index, result })));
  sources.forEach((_, index) => pull(index));
  try {
    while (pending.size > 0) {
      const { index, result } = await Promise.race(pending.values());
      if (result.done) {
        pending.delete(index);
        continue;
      }
      pull(index);
      yield [index, result.value];
    }
  } finally {
    // Sources still running (an early end, or another source threw) are ended; a pull in flight
    // settles on its own and its value, or its error, is dropped.
    for (const pull of pending.values()) pull.catch(() => {});
    await Promise.allSettled([...pending.keys()].map((index) => sources[index].return(undefined)));
  }
}
