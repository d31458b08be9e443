/** Outside clients of Lass's proxy (`/mcp/:id`) for the proxy tests: the MCP SDK v2 client. */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ClientCapabilities } from "@modelcontextprotocol/client";
import assert from "node:assert/strict";
import { type Json, post, type TestService, TOKEN, waitForEvent } from "./_helpers.ts";

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

/** The next held request of `method`, as its `proxy-hold` interaction. */
export function nextHold(t: TestService, method: string): Promise<Json> {
  return waitForEvent(t, (event) => {
    const interaction = event.data.interaction as Json;
    return event.type === "interaction.created" && interaction?.kind === "proxy-hold" &&
      interaction.method === method;
  }, { what: `a proxy-hold of ${method}` }).then((event) => event.data.interaction);
}

/** Answers a held request (forward, reply or drop) as the inspector's card does. */
export async function answerHold(t: TestService, id: string, response: unknown): Promise<void> {
  const { status, body } = await post(t, `/api/interactions/${id}`, { response });
  assert.equal(status, 200, JSON.stringify(body));
}
