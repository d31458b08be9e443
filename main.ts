/** The Lass command line: flags, config lookup, token, `Deno.serve` and clean shutdown. */
import { parseArgs } from "node:util";
import { findConfigPath, findDataDir } from "./core/config/lookup.ts";
import { LassError } from "./core/errors.ts";
import { openService } from "./core/service.ts";
import { VERSION } from "./core/version.ts";
import { createHandler } from "./routes/app.ts";
import { createSandboxHandler } from "./routes/sandbox.ts";
import { hostName, isLoopbackName } from "./routes/security.ts";
import { denoFileSystem } from "./runtime/deno_fs.ts";

const EXPOSE_FLAG = "unsafe-expose-to-network";

const HELP = `Lass ${VERSION}: the Local Agent Sandbox Service

Usage: deno task start [options]
       deno run main.ts demo-server    (the built-in demo tool server over stdio)

Options:
  --port <n>          Port to listen on (default 7420; 0 picks a free port)   [LASS_PORT]
  --sandbox-port <n>  Port of the MCP Apps sandbox page, a second origin
                      (default port + 1; 0 picks a free port)           [LASS_SANDBOX_PORT]
  --host <name>       Address to bind (default 127.0.0.1)                        [LASS_HOST]
  --config <path>     Config file (default ./service.json if it exists,
                      else $XDG_CONFIG_HOME/lass/service.json)                   [LASS_CONFIG]
  --data-dir <dir>    Sessions and OAuth tokens (default $XDG_DATA_HOME/lass)    [LASS_DATA_DIR]
  --${EXPOSE_FLAG}
                      Allow a non-loopback --host such as 0.0.0.0. Anyone who can
                      reach the port and learns the token can run tools on this machine.
  --help              Show this help
  --version           Show the version

The token is new at every start unless LASS_TOKEN is set. There is no way to turn it off.
`;

/** A startup problem: printed as one line, exit code 2 for usage errors, 1 otherwise. */
class StartupError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
  }
}

function parsePort(value: string, flag = "--port"): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new StartupError(
      `${flag} must be a number from 0 to 65535, not ${JSON.stringify(value)}`,
    );
  }
  return port;
}

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}

/** A bare address or name as it appears in a `Host` header's name part (IPv6 without brackets). */
function addressName(address: string): string {
  return address.includes(":") ? address.toLowerCase() : hostName(address);
}

/** Host names this machine answers to, for `Host` checks when bound beyond loopback. */
function machineHostNames(host: string): string[] {
  const names = [addressName(host)];
  // Query first: a missing permission must not stop the start with an interactive prompt.
  const granted = (kind: "hostname" | "networkInterfaces") =>
    Deno.permissions.querySync({ name: "sys", kind }).state === "granted";
  if (granted("hostname")) names.push(Deno.hostname().toLowerCase());
  if (granted("networkInterfaces")) {
    for (const iface of Deno.networkInterfaces()) names.push(addressName(iface.address));
  }
  // The unspecified addresses name no host: a request must say which one it wants.
  return names.filter((name) => name !== "" && name !== "::" && name !== "0.0.0.0");
}

/** Whether an address is an interface's own loopback or link-local one (no use to others). */
function isLocalOnly(address: string): boolean {
  return isLoopbackName(addressName(address)) || /^(fe80:|169\.254\.)/i.test(address);
}

/**
 * The host of the printed URL: the bound host, or for the unspecified addresses (`0.0.0.0`, `::`)
 * one that the `Host` check accepts and other machines can use: the machine's first network
 * address of that family, else loopback.
 */
function shownHost(host: string): string {
  const family = host === "0.0.0.0" ? "IPv4" : host === "::" || host === "[::]" ? "IPv6" : "";
  if (family === "") return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const granted =
    Deno.permissions.querySync({ name: "sys", kind: "networkInterfaces" }).state === "granted";
  const address = granted
    ? Deno.networkInterfaces().find((iface) =>
      iface.family === family && !isLocalOnly(iface.address)
    )?.address
    : undefined;
  if (address === undefined) return family === "IPv4" ? "127.0.0.1" : "[::1]";
  return family === "IPv6" ? `[${address}]` : address;
}

/**
 * The host of OAuth callback URLs: the bound address, or loopback for the unspecified addresses
 * (authorization servers accept plain http redirects only to loopback).
 */
function callbackHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::" || host === "[::]") return "[::1]";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

async function main(args: string[]): Promise<void> {
  if (args[0] === "demo-server") {
    // The built-in demo tool server over stdio, for other MCP clients.
    const { runDemoServerOverStdio } = await import("./core/mcp/demo_server.ts");
    return await runDemoServerOverStdio();
  }
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string" },
      "sandbox-port": { type: "string" },
      host: { type: "string" },
      config: { type: "string" },
      "data-dir": { type: "string" },
      [EXPOSE_FLAG]: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
    strict: true,
  });
  if (values.help) return console.log(HELP);
  if (values.version) return console.log(VERSION);

  const env = (name: string) => Deno.env.get(name);
  const port = parsePort(values.port ?? env("LASS_PORT") ?? "7420");
  const host = values.host ?? env("LASS_HOST") ?? "127.0.0.1";
  const sandboxFlag = values["sandbox-port"] ?? env("LASS_SANDBOX_PORT");
  const sandboxPort = sandboxFlag === undefined
    ? (port === 0 ? 0 : port + 1)
    : parsePort(sandboxFlag, "--sandbox-port");
  if (sandboxPort > 65535 || (sandboxPort !== 0 && sandboxPort === port)) {
    throw new StartupError(
      `the sandbox port must differ from --port and be at most 65535 (pass --sandbox-port)`,
    );
  }
  const exposed = !isLoopbackName(
    hostName(host.includes(":") && !host.startsWith("[") ? `[${host}]` : host),
  );
  if (exposed && !values[EXPOSE_FLAG]) {
    throw new StartupError(
      `refusing to listen on ${host}: it is reachable from other machines. ` +
        `Pass --${EXPOSE_FLAG} if you really mean it.`,
    );
  }
  const lookup = {
    env,
    cwd: Deno.cwd(),
    home: env("HOME") ?? env("USERPROFILE") ?? "",
    exists: denoFileSystem.exists,
  };
  const configPath = findConfigPath({ ...lookup, configFlag: values.config });
  const dataDir = findDataDir({ ...lookup, dataDirFlag: values["data-dir"] });
  const token = env("LASS_TOKEN") || newToken();

  let service;
  try {
    service = await openService({ configPath, dataDir, env, fs: denoFileSystem });
  } catch (error) {
    const details = error instanceof LassError
      ? (error.details ?? []).map((d) => `\n  ${d.path || "(top level)"}: ${d.message}`)
      : [];
    throw new StartupError(
      `cannot start with ${configPath}: ${(error as Error).message}${details.join("")}`,
      1,
    );
  }

  const shutdown = new AbortController();
  // Known once the ports are bound (`--port 0` picks one): OAuth callback URLs are built from
  // the public origin; the sandbox page may be framed only by the app's origin, and the app shows
  // MCP Apps only from the sandbox's (the request's host name, the other port).
  const bound: { app?: number; sandbox?: number; publicOrigin?: string } = {};
  const allowedHosts = exposed ? machineHostNames(host) : [];
  const handle = createHandler({
    service,
    token,
    allowedHosts,
    // Every request from the network names its host; one without is refused (400).
    requireHostHeader: true,
    publicOrigin: () => bound.publicOrigin,
    sandboxOrigin: (url) =>
      bound.sandbox === undefined ? undefined : `${url.protocol}//${url.hostname}:${bound.sandbox}`,
  });
  const sandboxHandler = createSandboxHandler({
    allowedHosts,
    requireHostHeader: true,
    appOrigin: (url) =>
      bound.app === undefined ? undefined : `${url.protocol}//${url.hostname}:${bound.app}`,
  });
  let backgroundStarted = false;
  const startBackground = () => {
    if (backgroundStarted) return;
    backgroundStarted = true;
    service.mcp.connectUsed();
  };
  const handler = async (req: Request) => {
    const response = await handle(req);
    if (!backgroundStarted) setTimeout(startBackground, 0);
    return response;
  };
  const listen = (
    which: { port: number; flag: string; what: string },
    serve: (req: Request) => Promise<Response>,
  ) => {
    try {
      return Deno.serve({
        hostname: host,
        port: which.port,
        signal: shutdown.signal,
        onListen() {},
      }, serve);
    } catch (error) {
      const reason = error instanceof Deno.errors.AddrInUse
        ? `port ${which.port} is already in use (pass ${which.flag} to pick another, or ${which.flag} 0 for any)`
        : (error as Error).message;
      throw new StartupError(`cannot listen on ${host}:${which.port}${which.what}: ${reason}`, 1);
    }
  };
  let server: Deno.HttpServer<Deno.NetAddr>;
  let sandboxServer: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = listen({ port, flag: "--port", what: "" }, handler);
    try {
      sandboxServer = listen(
        { port: sandboxPort, flag: "--sandbox-port", what: " (the MCP Apps sandbox)" },
        sandboxHandler,
      );
    } catch (error) {
      shutdown.abort();
      await server.finished;
      throw error;
    }
  } catch (error) {
    await service.close();
    throw error;
  }
  bound.app = server.addr.port;
  bound.sandbox = sandboxServer.addr.port;
  bound.publicOrigin = `http://${callbackHost(host)}:${bound.app}`;
  console.log(`Lass ready: http://${shownHost(host)}:${bound.app}/?token=${token}`);
  if (exposed) {
    const names = allowedHosts.filter((name) => !isLoopbackName(name));
    console.warn(
      `WARNING: Lass is reachable from the network on ${host}.\n` +
        `Accepted host names: ${names.join(", ")} and loopback (localhost, 127.0.0.1, ::1).`,
    );
  }
  // Tool servers connect in the background; readiness shows in GET /api/mcp and the event
  // stream. Loading the MCP SDK takes a few hundred ms of the event loop, so it waits for
  // the first answer (a client checking readiness) or a quarter second, whichever is first.
  setTimeout(startBackground, 250);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    shutdown.abort();
    // Long-lived streams (events, chat) must not hold the exit: give requests a moment, then go.
    await Promise.race([
      Promise.all([server.finished, sandboxServer.finished]),
      new Promise((resolve) => setTimeout(resolve, 1000)),
    ]);
    await service.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}

if (import.meta.main) {
  try {
    await main(Deno.args);
  } catch (error) {
    if (error instanceof StartupError) {
      console.error(`lass: ${error.message}`);
      Deno.exit(error.exitCode);
    }
    if (
      error instanceof TypeError && (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
    ) {
      console.error(`lass: ${error.message}\n\n${HELP}`);
      Deno.exit(2);
    }
    throw error;
  }
}
