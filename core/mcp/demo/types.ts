/** What the demo server's modules share: its UI tools' counters and a task's run. */
import type { InputRequest } from "@modelcontextprotocol/server";

/**
 * What the UI tools count, kept outside the server instance: a server built per request (2026-07-28
 * over HTTP) still numbers its refreshes and its A2UI surfaces across calls.
 */
export interface UiToolCounters {
  refreshes: number;
  forms: number;
}

/** What running work can do: watch for cancellation, report progress, ask the client. */
export interface TaskRun {
  /** Aborted by `tasks/cancel`; the work should stop and throw (then the task is `cancelled`). */
  readonly signal: AbortSignal;
  /** Sets the status message (how far the work got). */
  progress(message: string): void;
  /**
   * Asks the client: the task is `input_required` with this request under `key` until
   * `tasks/update` answers it. `key` must be new for this task. Rejects when the task is cancelled.
   */
  ask(key: string, request: InputRequest, statusMessage?: string): Promise<unknown>;
}
