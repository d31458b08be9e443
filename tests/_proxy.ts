/** Outside clients of Lass's proxy (`/mcp/:id`) for the proxy tests: the MCP SDK v2 client. */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ClientCapabilities } from "@modelcontextprotocol/client";
import { type Json, TOKEN } from "./_helpers.ts";

/** How an outside client of the proxy is made. */
export interface ProxyClientOptions {
  era?: "auto" | "legacy";
  name?: string;
  capabilities?: ClientCapabilities;
  onSampling?: (params: Json) => Json;
  onElicitation?: (params: Json) => Json;
  /** Declares `roots` and answers `roots/list` with these. */
  roots?: { uri: string; name?: string }[];
}

/** A client of `/mcp/:id` on a served Lass, with the token as a bearer header. */
export async function proxyClient(
  base: string,
  serverId: string,
  options: ProxyClientOptions = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const capabilities = options.roots
    ? { ...options.capabilities, roots: { listChanged: true } }
    : options.capabilities ?? {};
  const client = new Client({ name: options.name ?? "proxy-test", version: "1.2.3" }, {
    capabilities,
    ...(options.era === "auto" && { versionNegotiation: { mode: "auto" } }),
  });
  if (options.onSampling) {
    client.setRequestHandler(
      "sampling/createMessage",
      (request) => options.onSampling!(request.params),
    );
  }
  if (options.onElicitation) {
    client.setRequestHandler(
      "elicitation/create",
      (request) => options.onElicitation!(request.params),
    );
  }
  if (options.roots) {
    const roots = options.roots;
    client.setRequestHandler("roots/list", () => ({ roots }));
  }
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp/${serverId}`), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

/** The text of a tool result. */
export function textOf(result: Json): string {
  return (result.content ?? []).map((block: Json) => block.text ?? "").join("\n");
}
