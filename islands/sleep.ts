/** A pause that an abort cuts short, for streams that reconnect after a delay. */

/** Resolves after `ms`, or as soon as `stop` aborts (never rejects). */
export function sleep(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    stop.addEventListener("abort", done, { once: true });
  });
}
