/**
 * Answers the interactions of the command line's own chat runs (approvals, elicitation,
 * sampling): all yes, all no, or by asking on the terminal. It follows `GET /api/events` for
 * `interaction.created` and answers with `POST /api/interactions/:id`, in process and remote alike.
 */
import type {
  ApprovalAnswer,
  ElicitationAnswer,
  ElicitationRequest,
  Interaction,
} from "../wire/interactions.ts";
import { type Api, apiError, ndjsonLines } from "./api.ts";
import type { Spinner } from "./spinner.ts";

/** How interactions are answered: `all` approves, `none` denies, `ask` asks on the terminal. */
export type ApproveMode = "all" | "none" | "ask";

/** Writes a line to stderr. */
function note(text: string): void {
  console.error(text);
}

/** Reads lines from stdin, one question at a time. */
class Terminal {
  #reader: ReadableStreamDefaultReader<string> | undefined;
  #buffer = "";
  #queue: Promise<unknown> = Promise.resolve();

  /** Asks `question` on stderr and resolves to the line typed (empty at the end of stdin). */
  ask(question: string): Promise<string> {
    const asked = this.#queue.then(() => this.#read(question));
    this.#queue = asked.catch(() => {});
    return asked;
  }

  async #read(question: string): Promise<string> {
    Deno.stderr.writeSync(new TextEncoder().encode(question));
    this.#reader ??= Deno.stdin.readable.pipeThrough(new TextDecoderStream()).getReader();
    while (!this.#buffer.includes("\n")) {
      const { value, done } = await this.#reader.read();
      if (done) {
        const rest = this.#buffer;
        this.#buffer = "";
        return rest.trim();
      }
      this.#buffer += value;
    }
    const newline = this.#buffer.indexOf("\n");
    const line = this.#buffer.slice(0, newline);
    this.#buffer = this.#buffer.slice(newline + 1);
    return line.trim();
  }

  close(): void {
    this.#reader?.cancel().catch(() => {});
  }
}

type FieldSchema = { type?: string; default?: unknown; description?: string; enum?: unknown[] };

/** The form's fields that have defaults, as an elicitation answer's content. */
function defaults(request: ElicitationRequest): Record<string, string | number | boolean> {
  const properties = (request.requestedSchema?.properties ?? {}) as Record<string, FieldSchema>;
  return Object.fromEntries(
    Object.entries(properties).filter(([, field]) => field.default !== undefined)
      .map(([name, field]) => [name, field.default as string | number | boolean]),
  );
}

/** A typed value for a form field from what the user typed. */
function fieldValue(field: FieldSchema, text: string): string | number | boolean {
  if (field.type === "boolean") return /^(y|yes|true|1)$/i.test(text);
  if (field.type === "number" || field.type === "integer") return Number(text);
  return text;
}

/** Answers interactions of the runs it is told about, by one {@link ApproveMode}. */
export class InteractionAnswers {
  readonly #api: Api;
  readonly #mode: ApproveMode;
  readonly #terminal = new Terminal();
  readonly #spinner: Spinner;
  readonly #runs = new Set<string>();
  /** Interactions seen before their run was known (the run starts before its id is read). */
  readonly #waiting: Interaction[] = [];
  readonly #abort = new AbortController();
  #done: Promise<void> = Promise.resolve();

  /** `spinner` is hidden while a question waits for its answer. */
  constructor(api: Api, mode: ApproveMode, spinner: Spinner) {
    this.#api = api;
    this.#mode = mode;
    this.#spinner = spinner;
  }

  /** Starts following the event stream; resolves once it is open. */
  async start(): Promise<void> {
    const response = await this.#api.call("/api/events");
    if (!response.ok || !response.body) throw await apiError(response, "cannot follow the events");
    // A stream that breaks off (Lass went away) is said once; the turn's own stream says more.
    this.#done = this.#follow(response.body).catch((error) => {
      if (!this.#abort.signal.aborted) note(`lass: stopped following the events: ${error.message}`);
    });
  }

  /** Answers this run's interactions from now on (and any already seen). */
  addRun(runId: string): void {
    this.#runs.add(runId);
    for (const interaction of this.#waiting.splice(0)) this.#consider(interaction);
  }

  /** Stops following events and reading the terminal. */
  async stop(): Promise<void> {
    this.#abort.abort();
    this.#terminal.close();
    await this.#done;
  }

  async #follow(body: ReadableStream<Uint8Array>): Promise<void> {
    for await (const { value } of ndjsonLines(body, this.#abort.signal)) {
      const event = value as { type: string; data?: { interaction?: Interaction } };
      if (event.type === "interaction.created" && event.data?.interaction) {
        this.#consider(event.data.interaction);
      }
    }
  }

  #consider(interaction: Interaction): void {
    if (!interaction.runId) return;
    if (!this.#runs.has(interaction.runId)) {
      if (this.#waiting.length < 100) this.#waiting.push(interaction);
      return;
    }
    this.#answer(interaction).catch((error) =>
      note(`lass: could not answer ${interaction.kind} ${interaction.id}: ${error.message}`)
    );
  }

  /**
   * Sends the answer. A form answer Lass refuses (a value outside the form, a required field
   * without a default) is noted with the reasons; on the terminal the user answers again,
   * otherwise the form is cancelled so that the turn goes on.
   */
  async #answer(interaction: Interaction): Promise<void> {
    this.#spinner.stop();
    for (;;) {
      const answered = await this.#send(interaction, await this.#decide(interaction));
      if (answered.status !== 400 || interaction.kind !== "elicitation") {
        await answered.body?.cancel();
        return;
      }
      note(`lass: ${(await apiError(answered, "the form's answer was refused")).message}`);
      if (this.#mode === "ask") continue;
      note(`cancelled: ${interaction.message} (--approve ${this.#mode})`);
      await (await this.#send(interaction, { action: "cancel" })).body?.cancel();
      return;
    }
  }

  async #send(
    interaction: Interaction,
    response: ApprovalAnswer | ElicitationAnswer,
  ): Promise<Response> {
    return await this.#api.call(`/api/interactions/${interaction.id}`, {
      method: "POST",
      json: { response },
    });
  }

  /** The answer, by the mode; on the terminal the user decides. */
  async #decide(interaction: Interaction): Promise<ApprovalAnswer | ElicitationAnswer> {
    const from = [
      interaction.serverId,
      interaction.column && `column ${interaction.column.index + 1}: ${interaction.column.label}`,
    ].filter(Boolean).map((part) => ` (${part})`).join("");
    if (interaction.kind === "elicitation") return await this.#elicit(interaction, from);
    const what = interaction.kind === "approval"
      ? `run ${interaction.tool}${from} with ${JSON.stringify(interaction.input)}`
      : `answer a sampling request${from} with the chat's model`;
    if (this.#mode !== "ask") {
      const approved = this.#mode === "all";
      note(`${approved ? "approved" : "denied"}: ${what} (--approve ${this.#mode})`);
      return { approved };
    }
    const reply = await this.#terminal.ask(`? ${what}? [y/N] `);
    return { approved: /^y(es)?$/i.test(reply) };
  }

  async #elicit(request: ElicitationRequest, from: string): Promise<ElicitationAnswer> {
    const what = request.mode === "url"
      ? `${request.message}${from}: open ${request.url}`
      : `${request.message}${from}`;
    if (this.#mode === "none") {
      note(`declined: ${what} (--approve none)`);
      return { action: "decline" };
    }
    if (this.#mode === "all") {
      note(`accepted: ${what} (--approve all, the form's defaults)`);
      return request.mode === "url" ? { action: "accept" } : {
        action: "accept",
        content: defaults(request),
      };
    }
    const reply = await this.#terminal.ask(`? ${what}. Answer? [y/N] `);
    if (!/^y(es)?$/i.test(reply)) return { action: "decline" };
    if (request.mode === "url") return { action: "accept" };
    const properties = (request.requestedSchema?.properties ?? {}) as Record<string, FieldSchema>;
    const content: Record<string, string | number | boolean> = defaults(request);
    for (const [name, field] of Object.entries(properties)) {
      const hint = [field.type, field.enum ? `one of ${field.enum.join("|")}` : ""]
        .filter(Boolean).join(", ");
      const shown = field.default === undefined ? "" : ` [${field.default}]`;
      const text = await this.#terminal.ask(`  ${field.description ?? name} (${hint})${shown}: `);
      if (text !== "") content[name] = fieldValue(field, text);
    }
    return { action: "accept", content };
  }
}
