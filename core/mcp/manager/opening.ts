/**
 * What every connect of the manager opens with: the manager's settings, the session opener (the
 * MCP SDK, loaded on first use) and the built-in demo server, made once and shared.
 */
import { withoutRequester } from "../requester.ts";
import type { InProcessHandler, SessionOpener } from "../session/types.ts";
import type { EstablishContext } from "./establish.ts";
import type { SpecContext } from "./transport_spec.ts";
import type { ManagerOptions } from "./types.ts";

/** The parts of a connect's context that belong to one entry and attempt. */
export type AttemptParts = Pick<EstablishContext, "handlers" | "signInRequired" | "warn" | "scrub">;

type DemoServer = InProcessHandler & { close?: () => Promise<void> };

/** Builds each connect's context, and keeps the demo server they share. */
export class Opening {
  readonly #options: ManagerOptions;
  #demo?: Promise<DemoServer>;

  constructor(options: ManagerOptions) {
    this.#options = options;
  }

  /** The context of one connect attempt. */
  context(parts: AttemptParts): EstablishContext {
    const options = this.#options;
    return {
      env: options.env,
      configPath: options.config.path,
      exists: options.exists,
      demoServer: () => this.demoServer(),
      open: options.open ?? defaultOpen,
      oauth: options.oauth,
      keptEras: options.keptEras,
      ...parts,
    };
  }

  /** Where a record's transport is resolved: the env, the config's folder, the demo server. */
  specContext(): SpecContext {
    const { env, config, exists } = this.#options;
    return { env, configPath: config.path, exists, demoServer: () => this.demoServer() };
  }

  /** Closes the demo server, if one was made. */
  async close(): Promise<void> {
    const demo = await this.#demo?.catch(() => undefined);
    await demo?.close?.().catch(() => {});
  }

  /** The demo server's in-process handler, made once and shared by every connection to it. */
  demoServer(): Promise<InProcessHandler> {
    this.#demo ??= (this.#options.demoServer ?? defaultDemoServer)() as Promise<DemoServer>;
    return this.#demo;
  }
}

/**
 * Opens a session as Lass's own work, whoever asked for the connection: what the session sends
 * on its own later (list refreshes, listens, pings) is not marked as the asker's in the trace.
 */
function defaultOpen(...args: Parameters<SessionOpener>) {
  return withoutRequester(async () => (await import("../session/client.ts")).openSession(...args));
}

async function defaultDemoServer(): Promise<DemoServer> {
  const { createDemoHandler } = await import("../demo/server.ts");
  return createDemoHandler();
}
