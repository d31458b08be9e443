/**
 * `lass proxy --record`: what crosses the stdio proxy, kept as trace messages and written as a
 * cassette when the session ends.
 */
import type { TraceMessage } from "../../wire/trace.ts";
import { isSecretName, secretValues } from "../../core/config/secrets.ts";

/** The messages of one stdio proxy session, in order. */
export class StdioRecording {
  readonly #messages: TraceMessage[] = [];

  /** How many messages were kept. */
  get size(): number {
    return this.#messages.length;
  }

  /** Keeps a message that crossed (`out` client → server, `in` back). */
  add(dir: "out" | "in", message: unknown): void {
    this.#messages.push({
      seq: this.#messages.length + 1,
      time: new Date().toISOString(),
      serverId: "",
      dir,
      message,
      bytes: 0,
    });
  }

  /** The session as a cassette's text, `secrets` removed wherever they appear. */
  async cassette(serverId: string, transport: string, secrets: readonly string[]): Promise<string> {
    const { cassetteFromTrace } = await import("../../core/mcp/recordings/from_trace.ts");
    const { cassetteText } = await import("../../core/mcp/recordings/load.ts");
    const messages = this.#messages.map((message) => ({ ...message, serverId }));
    return cassetteText(cassetteFromTrace(messages, { id: serverId, transport }, { secrets }));
  }
}

/**
 * The values of this process's environment variables named like secrets (`*_TOKEN`, `*_KEY`, ...):
 * a wrapped command gets the whole environment, and its answers may echo them.
 */
export function secretEnvValues(): string[] {
  const variables = Object.keys(Deno.env.toObject()).filter(isSecretName);
  return secretValues({ variables }, (name) => Deno.env.get(name));
}
