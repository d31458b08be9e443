/**
 * A call's deadline as one timer over the whole call, whatever way it runs (a request, or an MCP
 * task followed to its end): past it the call is aborted. Progress restarts it only when asked,
 * and never past the total.
 */

/** How long a call may run, and what progress does to that. */
export interface DeadlineSettings {
  timeoutMs: number;
  /** Each progress notification restarts the deadline, up to `maxTotalTimeoutMs`. */
  progressExtendsTimeout?: boolean;
  /** With `progressExtendsTimeout`: the longest the call may run; default ten deadlines. */
  maxTotalTimeoutMs?: number;
}

/** A running deadline: its signal (aborted when it passes, or when the caller's aborts). */
export interface Deadline {
  /** Aborted when the deadline passes or the caller's signal aborts. */
  readonly signal: AbortSignal;
  /** Whether the deadline passed (rather than the caller cancelling). */
  expired(): boolean;
  /** The call reported progress: restarts the deadline when the settings say so. */
  progressed(): void;
  /** The call ended: stops the timer. */
  stop(): void;
}

/** Starts the deadline of one call; `caller` is the caller's own signal, if any. */
export function startDeadline(settings: DeadlineSettings, caller?: AbortSignal): Deadline {
  const controller = new AbortController();
  const started = performance.now();
  const total = settings.maxTotalTimeoutMs ?? settings.timeoutMs * 10;
  let passed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      passed = true;
      controller.abort(new Error(`no answer within ${settings.timeoutMs / 1000} s`));
    }, Math.max(0, ms));
  };
  const onAbort = () => {
    if (timer !== undefined) clearTimeout(timer);
    controller.abort(caller?.reason);
  };
  if (caller?.aborted) onAbort();
  else {
    caller?.addEventListener("abort", onAbort, { once: true });
    arm(settings.timeoutMs);
  }
  return {
    signal: controller.signal,
    expired: () => passed,
    progressed: () => {
      if (!settings.progressExtendsTimeout || controller.signal.aborted) return;
      const left = total - (performance.now() - started);
      arm(Math.min(settings.timeoutMs, left));
    },
    stop: () => {
      if (timer !== undefined) clearTimeout(timer);
      caller?.removeEventListener("abort", onAbort);
    },
  };
}
