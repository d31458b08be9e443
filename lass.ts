/**
 * `createLass`: a whole Lass (service, API handler, sandbox handler) opened in process, for
 * `lass serve`, the in-process subcommands and programs that mount Lass in their own server.
 * Only `node:` built-ins and web standards: it runs under Deno and Node 20+.
 */
import { homedir } from "node:os";
import { findConfigPath, findDataDir } from "./core/config/lookup.ts";
import type { FileSystem } from "./core/files.ts";
import { openService, type Service } from "./core/service.ts";
import { createHandler, type HandlerOptions } from "./routes/app.ts";
import { createSandboxHandler } from "./routes/sandbox.ts";

/** What {@link createLass} opens; every field has the same default as `lass serve`. */
export interface LassOptions {
  /** The config file; default the lookup of DESIGN.md section 2 (`LASS_CONFIG`, `./service.json`, XDG). */
  configPath?: string;
  /** Sessions and OAuth tokens; default `LASS_DATA_DIR` or `$XDG_DATA_HOME/lass`. */
  dataDir?: string;
  /** The token every API request needs; default `LASS_TOKEN`, else a new random one. */
  token?: string;
  /** Environment variables (`env:` references, provider keys); default the process's. */
  env?: (name: string) => string | undefined;
  /** The working directory of the lookup; default the process's. */
  cwd?: string;
  /** File access; default `node:fs`. */
  fs?: FileSystem;
  /** Connect the tool servers that workspaces use in the background (default true). */
  connectToolServers?: boolean;
  /** Follow edits of the config file on disk (default true; one-shot commands need not). */
  watchConfig?: boolean;
  /**
   * Keep running MCP tasks in the data dir, so that they go on when Lass closes and the next start
   * follows them again (default true; one-shot commands cancel theirs instead).
   */
  keepTasks?: boolean;
  /** Passed on to the API handler (host checks, public and sandbox origins). */
  handler?: Omit<HandlerOptions, "service" | "token">;
  /** Host names the sandbox handler accepts besides loopback names. */
  sandboxAllowedHosts?: string[];
  /** Refuse requests without a `Host` header on both handlers (servers on a network set it). */
  requireHostHeader?: boolean;
  /**
   * The app's origin for a sandbox page requested at `url`: the sandbox page may be framed only
   * by it. Without it any page may frame the sandbox page (it holds no data).
   */
  appOrigin?: (url: URL) => string | undefined;
}

/** An open Lass: two request handlers over one service. */
export interface Lass {
  /** The HTTP API and the web UI. */
  handler: (req: Request) => Promise<Response>;
  /** The MCP Apps sandbox page, to be served on a second origin (another port). */
  sandboxHandler: (req: Request) => Promise<Response>;
  /** The token the API requires. */
  token: string;
  configPath: string;
  dataDir: string;
  /** The service behind the handlers (config, sessions, tool servers, events). */
  service: Service;
  /** Disconnects tool servers and waits for every write in progress. */
  close(): Promise<void>;
}

/** A URL-safe random token (32 bytes). */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}

/**
 * The process's environment variables. `node:process` loads only when the caller gives no `env`
 * (the command line gives Deno's): it costs a start-up a dozen milliseconds.
 */
async function processEnv(): Promise<(name: string) => string | undefined> {
  const { env } = await import("node:process");
  return (name) => env[name];
}

/** Where the config file and the data dir are, by the options or the lookup rules. */
export async function locateFiles(
  options: Pick<LassOptions, "configPath" | "dataDir" | "env" | "cwd" | "fs">,
): Promise<{ configPath: string; dataDir: string }> {
  const env = options.env ?? await processEnv();
  const fs = options.fs ?? (await import("./core/files_node.ts")).nodeFileSystem;
  const lookup = {
    env,
    cwd: options.cwd ?? (await import("node:process")).cwd(),
    home: env("HOME") ?? env("USERPROFILE") ?? homedir(),
    exists: fs.exists,
  };
  return {
    configPath: findConfigPath({ ...lookup, configFlag: options.configPath }),
    dataDir: findDataDir({ ...lookup, dataDirFlag: options.dataDir }),
  };
}

/**
 * Opens the service and builds its handlers. Tool servers that workspaces use connect in the
 * background after the first answer or a quarter second, as under `lass serve`.
 */
export async function createLass(options: LassOptions = {}): Promise<Lass> {
  const env = options.env ?? await processEnv();
  const { configPath, dataDir } = await locateFiles({ ...options, env });
  const token = options.token || env("LASS_TOKEN") || newToken();
  const service = await openService({
    configPath,
    dataDir,
    env,
    fs: options.fs,
    watchConfig: options.watchConfig,
    keepTasks: options.keepTasks ?? true,
  });
  const handle = createHandler({
    ...options.handler,
    requireHostHeader: options.requireHostHeader ?? options.handler?.requireHostHeader,
    service,
    token,
  });
  const sandboxHandler = createSandboxHandler({
    allowedHosts: options.sandboxAllowedHosts ?? options.handler?.allowedHosts ?? [],
    requireHostHeader: options.requireHostHeader ?? false,
    appOrigin: options.appOrigin,
  });
  // Loading the MCP SDK takes a few hundred ms of the event loop: the background connects wait
  // for the first answer (a client checking readiness) or a quarter second, whichever is first.
  let started = options.connectToolServers === false;
  const startBackground = () => {
    if (started) return;
    started = true;
    clearTimeout(timer);
    service.mcp.connectUsed();
  };
  const timer = started ? undefined : setTimeout(startBackground, 250);
  const handler = async (req: Request) => {
    const response = await handle(req);
    if (!started) setTimeout(startBackground, 0);
    return response;
  };
  return {
    handler,
    sandboxHandler,
    token,
    configPath,
    dataDir,
    service,
    close: async () => {
      started = true;
      clearTimeout(timer);
      await service.close();
    },
  };
}
