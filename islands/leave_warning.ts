/**
 * The warning before the page unloads while leaving would lose something: a chat turn of this tab
 * is streaming (leaving aborts it) or a request waits for an answer (an approval of such a turn,
 * an elicitation). The `beforeunload` handler is there only then, so leaving an idle page is silent.
 */
import { effect, signal } from "@preact/signals";
import { pending } from "./state.ts";

/** How many chat turns of this tab are streaming. */
export const streamingTurns = signal(0);

/** Whether leaving the page now would abort a turn or drop a waiting request. */
export function leavingLosesWork(): boolean {
  return streamingTurns.value > 0 || pending.value.length > 0;
}

function warn(event: BeforeUnloadEvent): void {
  event.preventDefault();
  // Older browsers show the dialog only when a return value is set.
  event.returnValue = "";
}

/** Adds the `beforeunload` handler while {@link leavingLosesWork}, and removes it after. */
export function startLeaveWarning(): () => void {
  return effect(() => {
    if (!leavingLosesWork()) return;
    addEventListener("beforeunload", warn);
    return () => removeEventListener("beforeunload", warn);
  });
}
