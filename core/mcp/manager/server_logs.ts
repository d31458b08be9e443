/**
 * The logs of the configured tool servers: each server's `mcp.log` events (rate-limited, secrets
 * scrubbed) and its last lines.
 */
import type { EnvLookup } from "../../config/env_refs.ts";
import { clip } from "../../errors.ts";
import type { EventBus } from "../../events.ts";
import type { OAuthSignIn } from "../oauth/sign_in.ts";
import type { Entry } from "./entry.ts";
import { type LogLine, ServerLog } from "./log_limit.ts";
import { scrubSecrets } from "../../config/secrets.ts";
import { secretsOf } from "./transport_spec.ts";

/** What the logs need: where events go, and where the secrets to scrub come from. */
export interface ServerLogsOptions {
  events: EventBus;
  env: EnvLookup;
  oauth?: OAuthSignIn;
}

/** The log of every server entry, with the secrets of its record kept out. */
export class ServerLogs {
  readonly #options: ServerLogsOptions;
  /** The resolved env references of each record (a config change brings new record objects). */
  readonly #secrets = new WeakMap<object, string[]>();
  /** Each server's log: the rate limit of its `mcp.log` events and its last lines. */
  readonly #logs = new Map<Entry, ServerLog>();

  constructor(options: ServerLogsOptions) {
    this.#options = options;
  }

  /**
   * An `mcp.log` event, bounded, with resolved secrets of the record taken out; at most 50 a
   * second per server, then one event with the number of lines held back (the last 200 lines are
   * kept for `recentLog`).
   */
  log(entry: Entry, level: string, message: string, logger?: string): void {
    this.record(entry, level, this.scrub(entry, message), logger);
  }

  /** Keeps a scrubbed line and emits it, at most 50 a second per server. */
  record(entry: Entry, level: string, scrubbed: string, logger?: string): void {
    const line = { level, ...(logger && { logger }), message: clip(scrubbed) };
    let serverLog = this.#logs.get(entry);
    if (!serverLog) {
      const emit = this.#options.events.emit.bind(this.#options.events);
      serverLog = new ServerLog((count) =>
        emit("mcp.log", {
          serverId: entry.record.id,
          level: "warning",
          dropped: count,
          message: `${count} log lines were dropped (over 50 a second)`,
        })
      );
      this.#logs.set(entry, serverLog);
    }
    if (!serverLog.admit(line)) return;
    this.#options.events.emit("mcp.log", { serverId: entry.record.id, ...line });
  }

  /** An entry's last log lines (200 at most, oldest first). */
  recent(entry: Entry): LogLine[] {
    return this.#logs.get(entry)?.lines() ?? [];
  }

  /** Replaces the record's secrets (resolved env references, OAuth tokens) in a text. */
  scrub(entry: Entry, text: string): string {
    const oauth = this.#options.oauth?.secrets(entry.record) ?? [];
    let own = this.#secrets.get(entry.record);
    if (!own) this.#secrets.set(entry.record, own = secretsOf(entry.record, this.#options.env));
    return scrubSecrets(text, oauth.length > 0 ? [...own, ...oauth] : own);
  }

  /** Drops the log of an entry that left the config. */
  forget(entry: Entry): void {
    this.#logs.get(entry)?.close();
    this.#logs.delete(entry);
  }

  /** Stops every log's timers. */
  close(): void {
    for (const serverLog of this.#logs.values()) serverLog.close();
  }
}
