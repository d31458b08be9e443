/** Chat test helpers: configs with the demo model and servers, and reading NDJSON chunk streams. */
import type { Json, TestService } from "./_helpers.ts";

/** The built-in demo model profile. */
export const DEMO_LLM = {
  id: "demo",
  name: "Demo",
  provider: "compatible-api",
  model: "demo",
  baseURL: "service:demo",
};

/** The built-in demo tool server. */
export const DEMO_SERVER = {
  id: "demo",
  name: "Demo tools",
  transport: "stdio",
  command: "service:demo",
};

/** The demo server as a stdio process (`main.ts demo-server`) in a protocol era. */
export function demoServerStdio(era: string): Record<string, unknown> {
  return {
    ...DEMO_SERVER,
    command: Deno.execPath(),
    args: ["run", "-A", new URL("../main.ts", import.meta.url).pathname, "demo-server"],
    protocolEra: era,
  };
}

/** The failing stdio fixture server, started in one of its modes. */
export function failingServer(id: string, mode: string, extra: Record<string, unknown> = {}) {
  const path = new URL("./fixtures/mcp_failing_server.ts", import.meta.url).pathname;
  return {
    id,
    name: id,
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", path, mode],
    ...extra,
  };
}

/** A config with the demo model, the given servers, and workspace `w` using all of them. */
export function chatConfig(
  options: {
    servers?: Record<string, unknown>[];
    workspace?: Record<string, unknown>;
    llms?: Record<string, unknown>[];
  } = {},
): Record<string, unknown> {
  const servers = options.servers ?? [DEMO_SERVER];
  return {
    llms: options.llms ?? [DEMO_LLM],
    mcpServers: servers,
    workspaces: [{
      id: "w",
      name: "W",
      mcpServerIds: servers.map((server) => server.id),
      // Tests wait for their servers to be ready (a loaded machine may take longer than 3 s).
      toolServerWaitMs: 60_000,
      ...options.workspace,
    }],
    activeWorkspaceId: "w",
  };
}

/** Parses an NDJSON body into its values. */
export function parseNdjson(text: string): Json[] {
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

/** Posts a chat turn and reads every chunk. */
export async function chat(
  t: TestService,
  body: Record<string, unknown>,
): Promise<{ status: number; type: string | null; chunks: Json[]; body?: Json }> {
  const response = await t.call("/api/chat", { method: "POST", json: body });
  const type = response.headers.get("content-type");
  if (response.status !== 200) {
    return { status: response.status, type, chunks: [], body: await response.json() };
  }
  return { status: 200, type, chunks: parseNdjson(await response.text()) };
}

/** A user message. */
export function user(content: string) {
  return { role: "user", content };
}

/** The chunks of one type. */
export function ofType(chunks: Json[], type: string): Json[] {
  return chunks.filter((chunk) => chunk.type === type);
}

/**
 * Reads chunks from a streamed chat response as they arrive, calling `onChunk` for each;
 * stops early when it returns true (and then cancels the body).
 */
export async function readChunks(
  response: Response,
  onChunk: (chunk: Json) => boolean | void | Promise<boolean | void>,
): Promise<Json[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const chunks: Json[] = [];
  let buffer = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) return chunks;
    buffer += value;
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const chunk = JSON.parse(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      chunks.push(chunk);
      if (await onChunk(chunk)) {
        await reader.cancel();
        return chunks;
      }
    }
  }
}

/** A compatible-api model profile that talks to a fake vendor (`tests/fixtures/fake_vendors.ts`). */
export function fakeLlm(
  url: string,
  id = "fake",
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    name: "Fake",
    provider: "compatible-api",
    model: "fake-large",
    baseURL: `${url}/compatible/v1`,
    ...extra,
  };
}
