/** Ctrl-C in a command that cleans up before it exits. */
import { CliError } from "./errors.ts";

/** The exit code of a command stopped by Ctrl-C (128 + SIGINT), as shells report it. */
export const INTERRUPTED_EXIT = 130;

/**
 * Follows SIGINT while a command runs: the first aborts `signal` with a {@link CliError}
 * `interrupted` (the command stops its work, closes Lass, which stops the tool servers and saves
 * what ran, and exits 130); a second exits at once.
 */
export function followInterrupt(): { signal: AbortSignal; dispose(): void } {
  const abort = new AbortController();
  const listener = () => {
    if (abort.signal.aborted) Deno.exit(INTERRUPTED_EXIT);
    abort.abort(new CliError("interrupted", INTERRUPTED_EXIT));
  };
  Deno.addSignalListener("SIGINT", listener);
  return { signal: abort.signal, dispose: () => Deno.removeSignalListener("SIGINT", listener) };
}
