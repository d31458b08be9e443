/**
 * How a running tool call is getting on, shown the same way in the chat's tool cards and in the
 * inspector: a progress bar when the server says the total (else the count), its message, the
 * elapsed time ticking, and a Cancel button.
 */
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { formatDuration } from "./format.ts";
import { describeError } from "./state.ts";

/** What a server's progress notifications said last. */
export interface ProgressValues {
  progress?: number;
  total?: number;
  message?: string;
}

/** The progress bar (when `total` is known) or the count, and the message. */
export function ProgressReport({ progress, total, message }: ProgressValues) {
  const counted = progress !== undefined;
  const bounded = counted && total !== undefined && total > 0;
  return (
    <>
      {bounded
        ? <progress value={progress} max={total} aria-label={`Progress ${progress} of ${total}`} />
        : null}
      {counted
        ? (
          <span class="progress-count">
            {bounded ? `${progress} / ${total}` : `${progress} so far`}
          </span>
        )
        : null}
      {message ? <span class="tool-progress-message">{message}</span> : null}
    </>
  );
}

/** How a task's status reads. */
const TASK_STATUS_TEXT: Record<string, string> = {
  working: "working",
  input_required: "needs input",
  completed: "completed",
  failed: "failed",
  cancelled: "cancelled",
};

/** The MCP task a call runs as, and its status. */
export function TaskBadge({ taskId, status }: { taskId: string; status: string }) {
  return (
    <span class="tool-task" title={`MCP task ${taskId}`}>
      task <span class="badge">{TASK_STATUS_TEXT[status] ?? status}</span>
    </span>
  );
}

/** The time since `since` (epoch ms), ticking while it is shown. */
export function Elapsed({ since }: { since: number }) {
  const now = useSignal(Date.now());
  useEffect(() => {
    const timer = setInterval(() => now.value = Date.now(), 250);
    return () => clearInterval(timer);
  }, []);
  return (
    <span class="elapsed" title="Time since the call started">
      {formatDuration(Math.max(0, now.value - since))}
    </span>
  );
}

/** The props of {@link CancelButton}. */
export interface CancelButtonProps {
  /** Says which call it cancels, for screen readers (e.g. "Cancel slow_count"). */
  label: string;
  /** Asks for the cancel; a thrown error is shown next to the button. */
  onCancel: () => Promise<void> | void;
}

/** Cancels a running call; disabled (and saying so) once asked. */
export function CancelButton({ label, onCancel }: CancelButtonProps) {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const cancel = async () => {
    busy.value = true;
    error.value = null;
    try {
      await onCancel();
    } catch (failure) {
      busy.value = false;
      error.value = describeError(failure);
    }
  };
  return (
    <>
      <button
        type="button"
        class="cancel-call"
        aria-label={label}
        disabled={busy.value}
        onClick={() => void cancel()}
      >
        {busy.value ? "Cancelling…" : "Cancel call"}
      </button>
      {error.value ? <span class="error" role="alert">{error.value}</span> : null}
    </>
  );
}
