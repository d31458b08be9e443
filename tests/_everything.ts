/** server-everything (a 2025-era server on the v1 SDK) as a real peer over stdio, Streamable HTTP and SSE. */

/** The pinned package, served from Deno's npm cache. */
export const EVERYTHING = "npm:@modelcontextprotocol/server-everything@2026.8.31";

/** A tool-server record that starts server-everything over stdio; `extra` adds or replaces fields. */
export function everythingStdio(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "everything",
    name: "Everything",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", EVERYTHING, "stdio"],
    ...extra,
  };
}

/** A free loopback port (free when asked; tests use it at once). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** A running server-everything and how to stop it. */
export interface RunningEverything {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** What server-everything writes to stderr once its port is bound (in the listen callback). */
const LISTENING = /listening on port|running on port/;

/**
 * Starts server-everything in `streamableHttp` or `sse` mode on `port` and waits until it says it
 * listens: its own line on stderr, written once it has bound the port, so a port that another
 * process took meanwhile is never mistaken for it. Without `port` it takes a free one, and
 * another when the one it took was gone by the time the server bound it (up to three tries).
 */
export async function startEverything(
  mode: "streamableHttp" | "sse",
  port?: number,
): Promise<RunningEverything> {
  const tries = port === undefined ? 3 : 1;
  const failures: string[] = [];
  for (let attempt = 0; attempt < tries; attempt++) {
    const chosen = port ?? freePort();
    const started = await startOn(mode, chosen);
    if ("stop" in started) return started;
    failures.push(`port ${chosen}: ${started.failure}`);
  }
  throw new Error(`server-everything (${mode}) did not listen:\n${failures.join("\n")}`);
}

async function startOn(
  mode: "streamableHttp" | "sse",
  port: number,
): Promise<RunningEverything | { failure: string }> {
  const process = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", EVERYTHING, mode],
    env: { PORT: String(port), NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = process.stderr.getReader();
  const decoder = new TextDecoder();
  let said = "";
  const timer = setTimeout(() => process.kill("SIGKILL"), 20_000);
  try {
    while (!LISTENING.test(said)) {
      const { value, done } = await reader.read();
      if (done) break;
      said += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
  }
  if (!LISTENING.test(said)) {
    try {
      process.kill("SIGKILL");
    } catch {
      // Already ended.
    }
    await process.status;
    return { failure: said.trim().slice(-500) || "it ended, or said nothing within 20 s" };
  }
  // The rest of its stderr is read and dropped, so that a full pipe never blocks it.
  const drained = (async () => {
    while (!(await reader.read()).done) {
      // Dropped.
    }
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`,
    port,
    stop: async () => {
      try {
        process.kill("SIGTERM");
      } catch {
        // Already stopped.
      }
      await process.status;
      await drained;
    },
  };
}
