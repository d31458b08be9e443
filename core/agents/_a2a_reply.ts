/** Folds the A2A events of one turn (tasks, status and artifact updates, messages) into reply text. */
import {
  type Artifact,
  type Message,
  type Part,
  type StreamResponse,
  type Task,
  TaskState,
  type TaskStatus,
} from "@a2a-js/sdk";

/** How a turn's task ended, as Lass names it; `working` while it has not. */
export type A2aOutcome =
  | "working"
  | "completed"
  | "input-required"
  | "auth-required"
  | "failed"
  | "rejected"
  | "canceled";

const OUTCOMES: Partial<Record<TaskState, A2aOutcome>> = {
  [TaskState.TASK_STATE_COMPLETED]: "completed",
  [TaskState.TASK_STATE_INPUT_REQUIRED]: "input-required",
  [TaskState.TASK_STATE_AUTH_REQUIRED]: "auth-required",
  [TaskState.TASK_STATE_FAILED]: "failed",
  [TaskState.TASK_STATE_REJECTED]: "rejected",
  [TaskState.TASK_STATE_CANCELED]: "canceled",
};

const UNSUCCESSFUL = new Set<A2aOutcome>(["failed", "rejected", "canceled"]);

/**
 * The reply of one turn. Each `apply*` returns the text to show now (a delta, possibly empty):
 * artifact pieces with `append` continue their artifact, a repeated artifact shows only what it
 * added, and a new status message, artifact or message starts a new paragraph.
 */
export class A2aReply {
  contextId = "";
  taskId = "";
  outcome: A2aOutcome = "working";
  /** Everything shown so far. */
  text = "";
  /** The agent's own words on a failed, rejected or canceled task. */
  failureText = "";
  #artifacts = new Map<string, string>();
  #shownStatus = "";
  #resumedTaskId: string;
  #staleStatus = "";

  /** `resumedTaskId`: the message continues this task, whose first snapshot was shown last turn. */
  constructor(options: { resumedTaskId?: string } = {}) {
    this.#resumedTaskId = options.resumedTaskId ?? "";
  }

  /** Whether the turn is over: a final or interrupted task state, or a plain message. */
  get settled(): boolean {
    return this.outcome !== "working";
  }

  /** Whether the task waits for the user (input or authorization). */
  get interrupted(): boolean {
    return this.outcome === "input-required" || this.outcome === "auth-required";
  }

  /** Adds a paragraph of Lass's own, returning the delta. */
  add(text: string): string {
    return this.#show(text, true);
  }

  apply(event: StreamResponse): string {
    const payload = event.payload;
    if (!payload) return "";
    switch (payload.$case) {
      case "task":
        return this.applyTask(payload.value);
      case "message":
        return this.applyMessage(payload.value);
      case "statusUpdate":
        this.#ids(payload.value.contextId, payload.value.taskId);
        return this.#status(payload.value.status);
      case "artifactUpdate":
        this.#ids(payload.value.contextId, payload.value.taskId);
        return payload.value.artifact
          ? this.#artifact(payload.value.artifact, payload.value.append)
          : "";
    }
  }

  /** A whole task (the first stream event, or a `getTask` answer while polling). */
  applyTask(task: Task): string {
    this.#ids(task.contextId, task.id);
    if (task.id === this.#resumedTaskId) {
      // Its artifacts and status are last turn's: remember them, show nothing, and until the
      // status changes treat the task as working (it still says "input required").
      this.#resumedTaskId = "";
      for (const artifact of task.artifacts ?? []) {
        this.#artifacts.set(artifact.artifactId, partsText(artifact.parts));
      }
      this.#staleStatus = statusKey(task.status);
      return "";
    }
    let delta = "";
    for (const artifact of task.artifacts ?? []) delta += this.#artifact(artifact, false);
    return delta + this.#status(task.status);
  }

  /** A message instead of a task: the agent's whole answer. */
  applyMessage(message: Message): string {
    this.#ids(message.contextId, message.taskId);
    this.outcome = "completed";
    return this.#show(partsText(message.parts), true);
  }

  #ids(contextId: string, taskId: string): void {
    if (contextId) this.contextId = contextId;
    if (taskId) this.taskId = taskId;
  }

  #status(status: TaskStatus | undefined): string {
    if (!status) return "";
    if (this.#staleStatus && statusKey(status) === this.#staleStatus) return "";
    this.outcome = OUTCOMES[status.state] ?? "working";
    const message = status.message;
    const text = message ? partsText(message.parts) : "";
    if (UNSUCCESSFUL.has(this.outcome)) {
      this.failureText = text;
      return "";
    }
    // Polling returns the same status message again; agents also repeat an artifact as the status.
    const key = message?.messageId || text;
    if (!text || key === this.#shownStatus) return "";
    this.#shownStatus = key;
    if ([...this.#artifacts.values()].includes(text)) return "";
    return this.#show(text, true);
  }

  #artifact(artifact: Artifact, append: boolean): string {
    const id = artifact.artifactId;
    const text = partsText(artifact.parts);
    const shown = this.#artifacts.get(id);
    if (shown === undefined) {
      this.#artifacts.set(id, text);
      return this.#show(text, true);
    }
    if (append) {
      this.#artifacts.set(id, shown + text);
      return this.#show(text, false);
    }
    // A replacement: what was shown cannot be taken back, so show only what it adds.
    this.#artifacts.set(id, text);
    if (text.startsWith(shown)) return this.#show(text.slice(shown.length), false);
    return this.#show(text, true);
  }

  #show(text: string, paragraph: boolean): string {
    if (!text) return "";
    const delta = paragraph && this.text && !this.text.endsWith("\n") ? `\n\n${text}` : text;
    this.text += delta;
    return delta;
  }
}

function statusKey(status: TaskStatus | undefined): string {
  if (!status) return "";
  return `${status.state} ${status.timestamp ?? ""} ${status.message?.messageId ?? ""}`;
}

/** The text of parts: text as is, data as JSON, files named. */
export function partsText(parts: Part[] | undefined): string {
  return (parts ?? []).map(partText).join("");
}

function partText(part: Part): string {
  const content = part.content;
  if (!content) return "";
  const name = part.filename || part.mediaType || "file";
  switch (content.$case) {
    case "text":
      return content.value;
    case "data":
      return JSON.stringify(content.value);
    case "url":
      return `[${name}: ${content.value}]`;
    case "raw":
      return `[${name}]`;
  }
}
