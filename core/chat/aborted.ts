/** An abort as a promise that can stop listening: for waits raced against a turn's signal. */

/**
 * A promise that rejects with the signal's reason once it aborts, and `stop` to stop listening.
 * A listener left on a turn's signal would keep what it holds alive for good: the signal follows
 * the service's closing signal (`AbortSignal.any`), which keeps each signal depending on it that
 * still has listeners.
 */
export function abortOf(signal: AbortSignal): { promise: Promise<never>; stop(): void } {
  let onAbort = () => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  promise.catch(() => {});
  return { promise, stop: () => signal.removeEventListener("abort", onAbort) };
}
