/** Tiny text helpers that the server, the web UI and the CLI share, so all word a count the same way. */
import type { RetryState } from "./tool_servers.ts";

/** `1 model`, `2 models`; `many` for words whose plural is not `<word>s`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * What Lass's own reconnects of a failed server are doing, in words: `retrying in 4 s (attempt
 * 3 of 5)`, `retrying (attempt 3 of 5)` while that try runs, or why there is none.
 */
export function retryWords(
  retry: RetryState,
  options: { connecting: boolean; now: number },
): string {
  const of = retry.maxAttempts !== undefined ? ` of ${retry.maxAttempts}` : "";
  // The try that runs, or the next one.
  const attempt = `attempt ${retry.attempts + 1}${of}`;
  if (retry.stopped) {
    return `stopped after ${plural(retry.attempts, "failed start")}: Connect starts it again`;
  }
  if (options.connecting) return `retrying (${attempt})`;
  if (retry.at !== undefined) {
    const seconds = Math.max(0, Math.ceil((Date.parse(retry.at) - options.now) / 1000));
    return `retrying in ${seconds} s (${attempt})`;
  }
  return `${plural(retry.attempts, "failed attempt")}; no retry while nothing uses it`;
}
