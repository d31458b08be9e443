/**
 * The tool calls of chat runs that are running now, by run and call id, so that the user can
 * cancel one (`POST /api/chat/runs/:runId/tool-calls/:callId/cancel`) while the turn goes on.
 */

/** One registered call: its cancel signal, and `end` to take it out of the registry. */
export interface RunningCall {
  /** Aborted when the user cancels this call. */
  readonly signal: AbortSignal;
  /** Whether the user cancelled it. */
  cancelled(): boolean;
  /** The call ended (however): it can no longer be cancelled. */
  end(): void;
}

/** The running tool calls of every chat run. */
export class RunningCalls {
  readonly #runs = new Map<string, Map<string, AbortController>>();

  /**
   * Registers a call that starts now (a chat tool-server call, or an inspector call with a
   * `callId`); a call id registered twice in one run replaces the first registration.
   */
  start(runId: string, callId: string): RunningCall {
    let calls = this.#runs.get(runId);
    if (!calls) this.#runs.set(runId, calls = new Map());
    const controller = new AbortController();
    calls.set(callId, controller);
    return {
      signal: controller.signal,
      cancelled: () => controller.signal.aborted,
      end: () => this.#remove(runId, callId, controller),
    };
  }

  /**
   * Cancels a running call: true when it was running, false for an unknown run or call, or one
   * that ended or was cancelled already.
   */
  cancel(runId: string, callId: string): boolean {
    const controller = this.#runs.get(runId)?.get(callId);
    if (!controller || controller.signal.aborted) return false;
    // It stays registered until it ends, so a tool that starts only now sees the cancel.
    controller.abort(new DOMException("the user cancelled the tool call", "AbortError"));
    return true;
  }

  /** Forgets every call of a run that ended (a call left behind must not be cancellable). */
  endRun(runId: string): void {
    this.#runs.delete(runId);
  }

  /** How many calls are registered, over all runs. */
  size(): number {
    let count = 0;
    for (const calls of this.#runs.values()) count += calls.size;
    return count;
  }

  #remove(runId: string, callId: string, controller: AbortController): void {
    const calls = this.#runs.get(runId);
    if (calls?.get(callId) !== controller) return;
    calls.delete(callId);
    if (calls.size === 0) this.#runs.delete(runId);
  }
}
