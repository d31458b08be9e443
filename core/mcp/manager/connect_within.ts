/** Connecting a tool server with a bound on the wait, for commands that must go on without it. */
import type { ToolServerManager } from "./manager.ts";

/**
 * How long past its `timeoutMs` a connect may take to settle: a failed attempt stops the
 * processes it started (stdin closed, then SIGTERM, then SIGKILL, 2 s apart).
 */
export const SETTLE_MARGIN_MS = 5_000;

/**
 * Connects a configured server and waits until the connect settles, at most `timeoutMs` plus
 * {@link SETTLE_MARGIN_MS}; never throws. Whether it settled (connected or failed) in time.
 */
export async function connectWithin(
  mcp: Pick<ToolServerManager, "connect">,
  id: string,
  timeoutMs: number,
): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs + SETTLE_MARGIN_MS);
  });
  const settled = mcp.connect(id).then(() => true, () => true);
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
