/** `lass serve` (the default command): binds the API and the sandbox port and runs until a signal. */
import { hostName, isLoopbackName } from "../core/host_names.ts";
import { VERSION } from "../core/version.ts";
import { CliError } from "./errors.ts";
import { reduceHeapWhenQuiet } from "./heap_reducer.ts";
import { type GuardedServer, serveWithTimeouts } from "./listen.ts";
import { COMMON_HELP, openLass, parseFlags } from "./options.ts";
import { buildUiIfStale } from "./ui_build.ts";

const EXPOSE_FLAG = "unsafe-expose-to-network";

/** The help of `lass serve`. */
export const SERVE_HELP = `Lass ${VERSION}: the Local Agent Sandbox Service

Usage: lass [serve] [options]          (deno task start [options])

Options:
  --port <n>          Port to listen on (default 7420; 0 picks a free port)   [LASS_PORT]
  --sandbox-port <n>  Port of the MCP Apps sandbox page, a second origin
                      (default port + 1; 0 picks a free port)           [LASS_SANDBOX_PORT]
  --host <name>       Address to bind (default 127.0.0.1)                        [LASS_HOST]
${COMMON_HELP}
  --${EXPOSE_FLAG}
                      Allow a non-loopback --host such as 0.0.0.0. Anyone who can
                      reach the port and learns the token can run tools on this machine.
  --version           Show the version

The token is new at every start unless LASS_TOKEN is set. There is no way to turn it off.
`;

function parsePort(value: string, flag = "--port"): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new CliError(`${flag} must be a number from 0 to 65535, not ${JSON.stringify(value)}`);
  }
  return port;
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

/** Runs `lass serve` until SIGINT or SIGTERM; the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    port: { type: "string" },
    "sandbox-port": { type: "string" },
    host: { type: "string" },
    [EXPOSE_FLAG]: { type: "boolean" },
    version: { type: "boolean", short: "v" },
  }, "serve");
  if (values.help) return console.log(SERVE_HELP), 0;
  if (values.version) return console.log(VERSION), 0;

  const env = (name: string) => Deno.env.get(name);
  const port = parsePort(values.port ?? env("LASS_PORT") ?? "7420");
  const host = values.host ?? env("LASS_HOST") ?? "127.0.0.1";
  const sandboxFlag = values["sandbox-port"] ?? env("LASS_SANDBOX_PORT");
  const sandboxPort = sandboxFlag === undefined
    ? (port === 0 ? 0 : port + 1)
    : parsePort(sandboxFlag, "--sandbox-port");
  if (sandboxPort > 65535 || (sandboxPort !== 0 && sandboxPort === port)) {
    throw new CliError(
      `the sandbox port must differ from --port and be at most 65535 (pass --sandbox-port)`,
    );
  }
  const exposed = !isLoopbackName(
    hostName(host.includes(":") && !host.startsWith("[") ? `[${host}]` : host),
  );
  if (exposed && !values[EXPOSE_FLAG]) {
    throw new CliError(
      `refusing to listen on ${host}: it is reachable from other machines. ` +
        `Pass --${EXPOSE_FLAG} if you really mean it.`,
    );
  }

  const shutdown = new AbortController();
  // Known once the ports are bound (`--port 0` picks one): OAuth callback URLs are built from
  // the public origin; the sandbox page may be framed only by the app's origin, and the app shows
  // MCP Apps only from the sandbox's (the request's host name, the other port).
  const bound: { app?: number; sandbox?: number; publicOrigin?: string } = {};
  const allowedHosts = exposed ? machineHostNames(host) : [];
  // Started once Lass listens; pages and assets wait for it.
  const ui = Promise.withResolvers<void>();
  const lass = await openLass(values, {
    // Every request from the network names its host; one without is refused (400).
    requireHostHeader: true,
    handler: {
      uiReady: ui.promise,
      allowedHosts,
      publicOrigin: () => bound.publicOrigin,
      sandboxOrigin: (url) =>
        bound.sandbox === undefined
          ? undefined
          : `${url.protocol}//${url.hostname}:${bound.sandbox}`,
    },
    sandboxAllowedHosts: allowedHosts,
    appOrigin: (url) =>
      bound.app === undefined ? undefined : `${url.protocol}//${url.hostname}:${bound.app}`,
  });
  const listen = (
    which: { port: number; flag: string; what: string },
    serve: (req: Request) => Promise<Response>,
  ) => {
    try {
      return serveWithTimeouts(
        { hostname: host, port: which.port, signal: shutdown.signal },
        serve,
      );
    } catch (error) {
      const reason = error instanceof Deno.errors.AddrInUse
        ? `port ${which.port} is already in use (pass ${which.flag} to pick another, or ${which.flag} 0 for any)`
        : (error as Error).message;
      throw new CliError(`cannot listen on ${host}:${which.port}${which.what}: ${reason}`, 1);
    }
  };
  let server: GuardedServer;
  let sandboxServer: GuardedServer;
  try {
    server = listen({ port, flag: "--port", what: "" }, lass.handler);
    try {
      sandboxServer = listen(
        { port: sandboxPort, flag: "--sandbox-port", what: " (the MCP Apps sandbox)" },
        lass.sandboxHandler,
      );
    } catch (error) {
      shutdown.abort();
      await server.finished;
      throw error;
    }
  } catch (error) {
    await lass.close();
    throw error;
  }
  bound.app = server.addr.port;
  bound.sandbox = sandboxServer.addr.port;
  bound.publicOrigin = `http://${callbackHost(host)}:${bound.app}`;
  console.log(`Lass ready: http://${shownHost(host)}:${bound.app}/?token=${lass.token}`);
  buildUiIfStale().finally(ui.resolve);
  reduceHeapWhenQuiet(shutdown.signal);
  if (exposed) {
    const names = allowedHosts.filter((name) => !isLoopbackName(name));
    console.warn(
      `WARNING: Lass is reachable from the network on ${host}.\n` +
        `Accepted host names: ${names.join(", ")} and loopback (localhost, 127.0.0.1, ::1).`,
    );
  }

  // Until SIGINT or SIGTERM. Long-lived streams (events, chat) must not hold the exit: requests
  // get a moment to finish, then Lass closes (tool servers stop, writes land) and the command ends.
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    Deno.addSignalListener("SIGINT", stop);
    Deno.addSignalListener("SIGTERM", stop);
  });
  shutdown.abort();
  await Promise.race([
    Promise.all([server.finished, sandboxServer.finished]),
    new Promise((resolve) => setTimeout(resolve, 1000)),
  ]);
  await lass.close();
  return 0;
}
