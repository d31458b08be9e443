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

/**
 * Starts server-everything in `streamableHttp` or `sse` mode on `port` (default: a free one) and
 * waits until it accepts connections.
 */
export async function startEverything(
  mode: "streamableHttp" | "sse",
  port = freePort(),
): Promise<RunningEverything> {
  const process = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", EVERYTHING, mode],
    env: { PORT: String(port), NO_COLOR: "1" },
    stdout: "null",
    stderr: "null",
  }).spawn();
  let listening = false;
  for (let i = 0; i < 400 && !listening; i++) {
    try {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      conn.close();
      listening = true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  if (!listening) {
    process.kill("SIGKILL");
    await process.status;
    throw new Error(`server-everything (${mode}) did not listen on port ${port} within 20 s`);
  }
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
    },
  };
}
