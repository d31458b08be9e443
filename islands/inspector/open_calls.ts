/**
 * The tool calls this tab's inspector panels are making, so the Tasks list can end a panel's call
 * as the panel's own Cancel does: a task the list cancels is a call the user cancelled, not one
 * that failed.
 */

/** A panel's call in flight. */
interface OpenCall {
  serverId: string;
  tool: string;
  /** When the panel sent it (ms since the epoch). */
  startedAt: number;
  /** Drops the call's request; the panel then says "Call cancelled". */
  abandon(): void;
}

const open = new Set<OpenCall>();

/** Keeps `call` until the returned function is called (the call ended). */
export function trackCall(call: OpenCall): () => void {
  open.add(call);
  return () => open.delete(call);
}

/**
 * Drops the request of the panel call that runs as the task `task` (the panel's call of the same
 * tool of the same server, sent before the task was created), if this tab has one. The task's own
 * cancel goes to the server after, so the panel never reads the call's error answer.
 */
export function abandonCallOfTask(
  task: { serverId: string; tool: string; createdAt: string },
): boolean {
  // The server's clock and this tab's may differ by a little.
  const created = Date.parse(task.createdAt) + 2000;
  for (const call of open) {
    if (call.serverId === task.serverId && call.tool === task.tool && call.startedAt <= created) {
      open.delete(call);
      call.abandon();
      return true;
    }
  }
  return false;
}
