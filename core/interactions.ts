/** The registry of pending approval, elicitation and sampling requests that a person answers. */
import { detailsFromIssues, LassError } from "./errors.ts";
import { type ErrorDetail } from "../wire/errors.ts";
import type { EventBus } from "./events.ts";
import type { InteractionResponse } from "./interaction_answers.ts";
import type {
  CompareColumnLabel,
  ElicitationRequest,
  Interaction,
  InteractionRequest,
} from "../wire/interactions.ts";

/** Options of {@link InteractionRegistry.create}. */
export interface CreateOptions {
  /** Expire (reject) after this long without an answer. */
  timeoutMs?: number;
  /** Cancel (reject) when this signal aborts, e.g. when the chat turn ends. */
  signal?: AbortSignal;
}

interface Pending {
  interaction: Interaction;
  resolve(response: unknown): void;
  reject(error: Error): void;
  cleanup(): void;
}

const REMEMBERED_ANSWERS = 1000;

function article(word: string): string {
  return /^[aeiou]/.test(word) ? "an" : "a";
}

/**
 * An elicitation answer as the server gets it: an accepted form with the schema's defaults
 * filled in, if its content fits the schema. Declines, cancels and url-mode answers carry no
 * content to check.
 */
async function checkedForm(
  request: ElicitationRequest,
  answer: InteractionResponse<"elicitation">,
): Promise<{ answer: InteractionResponse<"elicitation"> } | { details: ErrorDetail[] }> {
  if (answer.action !== "accept" || request.mode !== "form" || !request.requestedSchema) {
    return { answer };
  }
  // Loaded on the first form answer: the checker brings AJV, which startup does not need.
  const { checkFormContent } = await import("./mcp/requests/elicitation_form.ts");
  const checked = checkFormContent(
    request.requestedSchema,
    answer.content ?? {},
    "response.content",
  );
  if ("details" in checked) return checked;
  return { answer: { ...answer, content: checked.content as typeof answer.content } };
}

/** Holds pending interactions until they are answered, expire or their run ends. */
export class InteractionRegistry {
  readonly #events: EventBus;
  readonly #pending = new Map<string, Pending>();
  /** Recently settled ids, so a second answer gets 409 rather than 404. */
  readonly #settled = new Set<string>();
  /** The compare column of each chat run that is one. */
  readonly #columns = new Map<string, CompareColumnLabel>();

  constructor(events: EventBus) {
    this.#events = events;
  }

  /** Names the compare column of a chat run on its interactions; `undefined` forgets it. */
  labelRun(runId: string, column: CompareColumnLabel | undefined): void {
    if (column) this.#columns.set(runId, column);
    else this.#columns.delete(runId);
  }

  /** Records a request and returns it with a promise of the person's answer. */
  create<R extends InteractionRequest>(
    request: R,
    options: CreateOptions = {},
  ): { interaction: Interaction; response: Promise<InteractionResponse<R["kind"]>> } {
    const column = request.runId === undefined ? undefined : this.#columns.get(request.runId);
    const interaction = {
      ...request,
      ...(column && { column }),
      id: crypto.randomUUID(),
      createdAt: new Date().toISOString(),
    } as Interaction;
    const response = new Promise<InteractionResponse<R["kind"]>>((resolve, reject) => {
      const onAbort = () =>
        this.#settle(
          interaction.id,
          "cancelled",
          new LassError("conflict", "the request was cancelled"),
        );
      const timer = options.timeoutMs === undefined ? undefined : setTimeout(
        () =>
          this.#settle(
            interaction.id,
            "expired",
            new LassError("timeout", "nobody answered in time"),
          ),
        options.timeoutMs,
      );
      options.signal?.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(interaction.id, {
        interaction,
        resolve: resolve as (response: unknown) => void,
        reject,
        cleanup: () => {
          clearTimeout(timer);
          options.signal?.removeEventListener("abort", onAbort);
        },
      });
    });
    this.#events.emit("interaction.created", { interaction });
    if (options.signal?.aborted) {
      this.#settle(
        interaction.id,
        "cancelled",
        new LassError("conflict", "the request was cancelled"),
      );
    }
    return { interaction, response };
  }

  /** The pending interactions, oldest first. */
  list(): Interaction[] {
    return [...this.#pending.values()].map((pending) => pending.interaction);
  }

  /** Throws 404 `not-found` for an unknown id and 409 `conflict` for one already settled. */
  assertPending(id: string): Interaction {
    const pending = this.#pending.get(id);
    if (pending) return pending.interaction;
    if (this.#settled.has(id)) {
      throw new LassError("conflict", `interaction ${id} was already answered or has ended`);
    }
    throw new LassError("not-found", `no pending interaction has id ${id}`);
  }

  /**
   * Answers a pending interaction; the response is validated for its kind, and an accepted form
   * against the request's `requestedSchema` (after its defaults are filled in). An answer that
   * does not fit is 400 `invalid-request` and leaves the interaction pending.
   */
  async answer(id: string, response: unknown): Promise<void> {
    const interaction = this.assertPending(id);
    const invalid = (details: ErrorDetail[]) =>
      new LassError(
        "invalid-request",
        `not a valid answer to ${article(interaction.kind)} ${interaction.kind} request`,
        details,
      );
    // The answers' schemas (and zod) load with the first answer, not at startup.
    const { RESPONSE_SCHEMAS } = await import("./interaction_answers.ts");
    const parsed = RESPONSE_SCHEMAS[interaction.kind].safeParse(response);
    // Answered or withdrawn while the schemas loaded: this answer comes too late.
    this.assertPending(id);
    if (!parsed.success) throw invalid(detailsFromIssues(parsed.error.issues, "response"));
    let answer: unknown = parsed.data;
    if (interaction.kind === "elicitation") {
      const checked = await checkedForm(
        interaction,
        parsed.data as InteractionResponse<"elicitation">,
      );
      if ("details" in checked) throw invalid(checked.details);
      answer = checked.answer;
      // Answered or withdrawn while the checker loaded: this answer comes too late.
      this.assertPending(id);
    }
    this.#settle(id, "answered", answer);
  }

  /** Rejects every pending interaction of a chat run, e.g. when the turn is aborted. */
  rejectRun(runId: string, reason = "the chat turn ended"): void {
    for (const pending of [...this.#pending.values()]) {
      if (pending.interaction.runId === runId) {
        this.#settle(pending.interaction.id, "cancelled", new LassError("conflict", reason));
      }
    }
  }

  #settle(
    id: string,
    outcome: "answered" | "expired" | "cancelled",
    result: unknown,
  ): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    pending.cleanup();
    this.#settled.add(id);
    if (this.#settled.size > REMEMBERED_ANSWERS) {
      this.#settled.delete(this.#settled.values().next().value!);
    }
    const { kind } = pending.interaction;
    if (outcome === "answered") {
      pending.resolve(result);
      this.#events.emit("interaction.resolved", { id, kind, outcome, response: result });
    } else {
      pending.reject(result as Error);
      this.#events.emit("interaction.resolved", { id, kind, outcome });
    }
  }
}
