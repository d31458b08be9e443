/** Test helpers: a service on a temp dir and a handler called with real Requests. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LassEvent } from "../wire/events.ts";
import { openService, type Service, type ServiceOptions } from "../core/service.ts";
import { createHandler } from "../routes/app.ts";

/** The token of every test service. */
export const TOKEN = "test-token-0123456789";

/** A service under test and a way to call its handler. */
export interface TestService {
  dir: string;
  configPath: string;
  service: Service;
  handler: (req: Request) => Promise<Response>;
  /** Calls the handler with the token set, unless `init.token` is null. */
  call(
    path: string,
    init?: RequestInit & { token?: string | null; json?: unknown },
  ): Promise<Response>;
  close(): Promise<void>;
}

/** Options of {@link startService}. */
export interface StartOptions {
  /** Written as `service.json` first (a string is written as is); absent: the default config. */
  config?: unknown;
  env?: Record<string, string>;
  watchConfig?: boolean;
  heartbeatMs?: number;
  mcp?: ServiceOptions["mcp"];
  registry?: ServiceOptions["registry"];
  keepTasks?: boolean;
  /** The folder of the config and data dir (kept on close); default a fresh temp dir (removed). */
  dir?: string;
}

/**
 * Opens a service on a fresh temp dir (or `options.dir`), in the test's own process. Such a
 * service runs with the test runner's permissions (`deno test --allow-all`), not the start
 * task's: Deno grants permissions per process, and a test process also starts fake vendors,
 * tool-server fixtures and Chromium, which need more. What depends on the start task's
 * permissions (spawning and stopping stdio servers, reading the process table, lazy imports) is
 * tested on Lass started as a process with `START_FLAGS` (`tests/_cli.ts`).
 */
export async function startService(options: StartOptions = {}): Promise<TestService> {
  const dir = options.dir ?? await mkdtemp(join(tmpdir(), "lass-test-"));
  const configPath = join(dir, "service.json");
  if (options.config !== undefined) {
    const text = typeof options.config === "string"
      ? options.config
      : JSON.stringify(options.config, null, 2);
    await writeFile(configPath, text);
  }
  const env = options.env ?? {};
  const service = await openService({
    configPath,
    dataDir: join(dir, "data"),
    env: (name) => env[name],
    watchConfig: options.watchConfig ?? false,
    keepTasks: options.keepTasks,
    mcp: options.mcp,
    registry: options.registry,
  });
  const handler = createHandler({
    service,
    token: TOKEN,
    heartbeatMs: options.heartbeatMs,
    log: () => {},
  });
  return {
    dir,
    configPath,
    service,
    handler,
    call: (path, init = {}) => {
      const { token = TOKEN, json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (token !== null) headers.set("x-service-token", token);
      const body = json === undefined ? rest.body : JSON.stringify(json);
      return handler(new Request(`http://127.0.0.1:7420${path}`, { ...rest, headers, body }));
    },
    close: async () => {
      await service.close();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A parsed JSON body; tests read fields freely. */
// deno-lint-ignore no-explicit-any
export type Json = any;

/** Reads a JSON response body and returns it with the status. */
export async function readJsonResponse(
  response: Response,
): Promise<{ status: number; body: Json }> {
  return { status: response.status, body: await response.json() };
}

/** A valid config with two of everything that cross-references. */
export function sampleConfig(): Record<string, unknown> {
  return {
    version: 1,
    activeWorkspaceId: "main",
    llms: [
      {
        id: "demo",
        name: "Demo",
        provider: "compatible-api",
        model: "demo",
        baseURL: "service:demo",
      },
      {
        id: "gpt",
        name: "GPT",
        provider: "hosted-a",
        model: "gpt-5-mini",
        apiKey: "env:OPENAI_API_KEY",
      },
    ],
    mcpServers: [
      { id: "demo", name: "Demo tools", transport: "stdio", command: "service:demo" },
      {
        id: "remote",
        name: "Remote",
        transport: "http",
        url: "https://mcp.example.com/mcp",
        headers: { authorization: "Bearer literal-secret" },
      },
    ],
    skills: [{ id: "notes", content: "---\nname: notes\ndescription: Take notes\n---\nBody" }],
    agents: [{ id: "helper", name: "Helper", protocol: "a2a", url: "http://127.0.0.1:9999" }],
    catalogs: [{ id: "cards", catalog: { catalogId: "https://example.com/cards.json" } }],
    workspaces: [
      {
        id: "main",
        name: "Main",
        llmId: "gpt",
        mcpServerIds: ["demo", "remote"],
        skillIds: ["notes"],
        generativeUi: { catalogIds: ["cards"] },
      },
      { id: "agent", name: "Agent", agentId: "helper", mcpServerIds: [], skillIds: [] },
    ],
  };
}

/** POSTs JSON (or nothing) with the token and reads the JSON answer. */
export async function post(t: TestService, path: string, json?: unknown) {
  return await readJsonResponse(await t.call(path, { method: "POST", json }));
}

/**
 * Waits for the first event that passes `test`, failing after `ms` with `what` (default: the
 * test's source) and the types of the last events seen, so a timeout says which event was missing.
 */
export function waitForEvent(
  t: Pick<TestService, "service">,
  test: (event: LassEvent) => boolean,
  options: { what?: string; ms?: number } = {},
): Promise<LassEvent> {
  const { what = `matching ${test.toString()}`, ms = 10_000 } = options;
  return new Promise<LassEvent>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      const seen = t.service.events.history().slice(-8).map((event) => event.type);
      reject(
        new Error(
          `no event ${what} within ${ms} ms; the last events were [${seen.join(", ")}]`,
        ),
      );
    }, ms);
    const stop = t.service.events.subscribe((event) => {
      if (!test(event)) return;
      clearTimeout(timer);
      stop();
      resolve(event);
    });
  });
}

/**
 * The first event, already recorded or still to come, that passes `test` (20 s by default);
 * fails naming `what`.
 */
export async function eventSeen(
  t: TestService,
  test: (event: LassEvent) => boolean,
  what: string,
  ms = 20_000,
): Promise<LassEvent> {
  const waiting = waitForEvent(t, test, { what, ms });
  const past = t.service.events.history().find(test);
  if (past) {
    waiting.catch(() => {});
    return past;
  }
  return await waiting;
}

/**
 * Polls `test` (which may be async, e.g. reading a file) until it holds, failing after 10 s with
 * `what`: for state that no event announces.
 */
export async function waitUntil(
  test: () => boolean | Promise<boolean>,
  what: string,
): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!await test()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} (10 s)`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A config with the demo model, the given tool servers and one workspace that uses none of them. */
export function configWithServers(servers: Record<string, unknown>[]): Record<string, unknown> {
  return {
    llms: [{
      id: "demo",
      name: "Demo",
      provider: "compatible-api",
      model: "demo",
      baseURL: "service:demo",
    }],
    mcpServers: servers,
    workspaces: [{ id: "w", name: "W", llmId: "demo", mcpServerIds: [] }],
    activeWorkspaceId: "w",
  };
}

/** Serves a test service over real HTTP (so a client that goes away really disconnects). */
export function serveOverHttp(t: TestService): { url: string; close: () => Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, t.handler);
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    close: () => server.shutdown(),
  };
}

/**
 * Runs `run` with a test service on `servers` (see {@link configWithServers}) served over real
 * HTTP, for clients that reach it as outside clients do; both are closed after.
 */
export async function withServedService(
  servers: Record<string, unknown>[],
  run: (t: TestService, base: string) => Promise<void>,
): Promise<void> {
  const t = await startService({ config: configWithServers(servers) });
  const served = serveOverHttp(t);
  try {
    await run(t, served.url);
  } finally {
    await served.close();
    await t.close();
  }
}
