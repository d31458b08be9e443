/**
 * The protocol controls of an open session, per era: argument completion, the log level,
 * resource subscriptions, ping, and telling the server that its roots changed.
 */
import { type Client, LOG_LEVEL_META_KEY } from "@modelcontextprotocol/client";
import { KeptListen } from "./kept_listen.ts";
import type { PingKind, SessionControls, SessionHandlers } from "./types.ts";
import type { LogLevel } from "../../../wire/tool_servers.ts";

/** What the controls need to know about their session. */
export interface ControlsOptions {
  modern: boolean;
  capabilities?: Record<string, unknown>;
  /** Whether the peer is across the network. */
  remote: boolean;
  /** Whether the remote server answers HTTP at all (the healing code's HEAD). */
  reachable: (timeoutMs: number) => Promise<boolean>;
  /** Where a 2026 resource stream that was reopened, or ended, is reported. */
  handlers: Pick<SessionHandlers, "log" | "resourceUpdated" | "troubled">;
  /** The level to start with (one chosen before a reconnect); default `debug`. */
  logLevel?: LogLevel;
}

/** The controls plus what the session itself uses: the `_meta` of each request, and closing. */
export interface OpenControls extends SessionControls {
  /** `_meta` that every 2026 request carries (the wanted log level); nothing on 2025. */
  requestMeta(): Record<string, unknown>;
  close(): Promise<void>;
}

/** Builds a session's controls; a 2025 session gets its chosen log level at once. */
export async function openControls(
  client: Client,
  options: ControlsOptions,
): Promise<OpenControls> {
  const { modern, capabilities } = options;
  let logLevel: LogLevel = options.logLevel ?? "debug";
  const listens = new Map<string, KeptListen>();
  const legacySubscriptions = new Set<string>();
  if (!modern && options.logLevel && capabilities?.logging) {
    await client.setLoggingLevel(options.logLevel).catch(() => {});
  }
  // 2026-07-28 has no ping: a local server answers `server/discover`, a remote one HTTP.
  const pingKind: PingKind = !modern ? "ping" : options.remote ? "http-head" : "server/discover";
  return {
    requestMeta: () => modern ? { _meta: { [LOG_LEVEL_META_KEY]: logLevel } } : {},
    complete: async (request, timeoutMs) => {
      if (!capabilities?.completions) return { values: [] };
      const { completion } = await client.complete({
        ref: request.ref,
        argument: request.argument,
        ...(request.context && { context: request.context }),
      }, { timeout: timeoutMs });
      return {
        values: completion.values,
        ...(completion.total !== undefined && { total: completion.total }),
        ...(completion.hasMore !== undefined && { hasMore: completion.hasMore }),
      };
    },
    get logLevel() {
      return logLevel;
    },
    setLogLevel: async (level, timeoutMs) => {
      if (!modern) await client.setLoggingLevel(level, { timeout: timeoutMs });
      logLevel = level;
    },
    pingKind,
    ping: async (timeoutMs) => {
      const started = performance.now();
      if (pingKind === "ping") await client.ping({ timeout: timeoutMs });
      else if (pingKind === "server/discover") await client.discover({ timeout: timeoutMs });
      else if (!(await options.reachable(timeoutMs))) {
        throw new Error("the server does not answer");
      }
      return Math.round(performance.now() - started);
    },
    get subscriptions() {
      return modern ? [...listens.keys()] : [...legacySubscriptions];
    },
    subscribe: async (uri, timeoutMs) => {
      if (!modern) {
        await client.subscribeResource({ uri }, { timeout: timeoutMs });
        legacySubscriptions.add(uri);
        return;
      }
      if (listens.has(uri)) return;
      const open = async () => {
        const listen = await client.listen({ resourceSubscriptions: [uri] }, {
          timeout: timeoutMs,
        });
        if (!listen.honoredFilter.resourceSubscriptions?.includes(uri)) {
          await listen.close().catch(() => {});
          throw new Error(`the server does not send updates of ${uri}`);
        }
        return listen;
      };
      const { handlers } = options;
      // The stream is kept open; an update sent while it was down is lost, so one is reported.
      listens.set(
        uri,
        new KeptListen(await open(), open, {
          reopened: () => {
            handlers.log("info", `the updates stream of ${uri} ended and was opened again`);
            handlers.resourceUpdated?.(uri);
          },
          failed: (reason) => handlers.troubled(reason),
        }),
      );
    },
    unsubscribe: async (uri, timeoutMs) => {
      if (!modern) {
        await client.unsubscribeResource({ uri }, { timeout: timeoutMs });
        legacySubscriptions.delete(uri);
        return;
      }
      const listen = listens.get(uri);
      listens.delete(uri);
      await listen?.close();
    },
    rootsChanged: async () => {
      if (modern) return false;
      await client.sendRootsListChanged();
      return true;
    },
    close: async () => {
      const open = [...listens.values()];
      listens.clear();
      await Promise.all(open.map((listen) => listen.close().catch(() => {})));
    },
  };
}
