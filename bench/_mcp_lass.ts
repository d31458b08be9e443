/**
 * The Lass side of the MCP bench: the real server in its own process, and requests sent to it
 * again and again on kept-alive raw HTTP connections (far less client cost than `fetch`).
 */
import { BENCH_TOKEN, startLassProcess } from "./_lass_process.ts";
import { type RawClient, rawHttpClient, type RawRequest } from "./_raw_http.ts";
import { DEMO_LLM } from "./_demo_llm.ts";

/**
 * Starts Lass in its own process with `mcpServers` in one workspace on the demo model, and waits
 * until every server is connected.
 */
export async function startBenchLass(dir: string, mcpServers: { id: string }[]) {
  const config = {
    llms: [DEMO_LLM],
    mcpServers,
    workspaces: [{
      id: "w",
      name: "W",
      llmId: "demo",
      mcpServerIds: mcpServers.map((server) => server.id),
    }],
  };
  const lass = await startLassProcess(dir, config);
  const { port, base } = lass;
  const headers = { "x-service-token": BENCH_TOKEN, "content-type": "application/json" };
  let eras: Record<string, string> = {};
  for (let i = 0; i < 1200; i++) {
    const body = await (await fetch(`${base}/api/mcp`, { headers })).json();
    const servers = body.servers as { id: string; status: string; era?: string }[];
    eras = Object.fromEntries(servers.map((s) => [s.id, `${s.status} ${s.era ?? ""}`]));
    if (servers.every((s) => s.status === "connected")) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const clients = new Set<RawClient>();
  /** A request sent again and again on one kept-alive connection. */
  const repeat = async (request: Pick<RawRequest, "method" | "path" | "body">) => {
    const open = async () => {
      const client = await rawHttpClient({ port, headers, ...request });
      clients.add(client);
      return client;
    };
    let client = await open();
    return async () => {
      try {
        await client.send();
      } catch {
        // Lass closes a keep-alive connection after 5 s idle (`cli/listen.ts`): a new one.
        clients.delete(client);
        try {
          client.close();
        } catch {
          // Already closed.
        }
        client = await open();
        await client.send();
      }
    };
  };
  const call = (server: string, tool: string, args: unknown) =>
    repeat({
      method: "POST",
      path: `/api/mcp/${server}/call`,
      body: JSON.stringify({ tool, args }),
    });
  return {
    eras,
    call,
    /** The floor of any route: an HTTP round trip to Lass that does nothing else. */
    health: () => repeat({ method: "GET", path: "/api/health" }),
    stop: async () => {
      for (const client of clients) client.close();
      await lass.stop();
    },
  };
}
