/** Real peers: server-everything over Streamable HTTP and SSE, and its sampling and elicitation. */
import assert from "node:assert/strict";
import {
  configWithServers,
  type Json,
  post,
  readJsonResponse,
  startService,
  waitForEvent,
} from "../_helpers.ts";
import { everythingStdio, startEverything } from "../_everything.ts";

async function nextInteraction(t: Awaited<ReturnType<typeof startService>>): Promise<Json> {
  return (await waitForEvent(t, (event) => event.type === "interaction.created")).data.interaction;
}

for (const mode of ["streamableHttp", "sse"] as const) {
  Deno.test(`server-everything over ${mode === "sse" ? "SSE" : "Streamable HTTP"}: connect, call, read`, async () => {
    const everything = await startEverything(mode);
    const transport = mode === "sse" ? "sse" : "http";
    const t = await startService({
      config: configWithServers([{
        id: "remote",
        name: "Remote",
        transport,
        url: everything.url,
        headers: { "x-test": "1" },
        oauth: false,
      }]),
    });
    try {
      const state = (await post(t, "/api/mcp/remote/connect")).body;
      assert.equal(state.status, "connected", state.error);
      assert.equal(state.transport, transport);
      assert.ok(state.tools.some((tool: Json) => tool.name === "get-sum"));
      const sum = await post(t, "/api/mcp/remote/call", {
        tool: "get-sum",
        args: { a: 20, b: 22 },
      });
      assert.match(JSON.stringify(sum.body.result.content), /42/);
      const resource = await post(t, "/api/mcp/remote/resource", { uri: state.resources[0].uri });
      assert.equal(resource.status, 200, JSON.stringify(resource.body));
      assert.equal((await post(t, "/api/mcp/remote/disconnect")).body.status, "disconnected");
    } finally {
      await t.close();
      await everything.stop();
    }
  });
}

Deno.test("sampling: ask waits for the user, then the configured model answers", async () => {
  const t = await startService({ config: configWithServers([everythingStdio()]) });
  try {
    await post(t, "/api/mcp/everything/connect");
    const asked = nextInteraction(t);
    const call = post(t, "/api/mcp/everything/call", {
      tool: "trigger-sampling-request",
      args: { prompt: "Say hello", maxTokens: 50 },
    });
    const interaction = await asked;
    assert.equal(interaction.kind, "sampling");
    assert.equal(interaction.serverId, "everything");
    assert.equal(interaction.maxTokens, 50);
    assert.ok(interaction.messages.length > 0);
    const answered = await post(t, `/api/interactions/${interaction.id}`, {
      response: { approved: true },
    });
    assert.equal(answered.status, 200);
    const result = (await call).body.result;
    assert.equal(result.isError, undefined);
    assert.match(JSON.stringify(result.content), /demo/i, "the demo model wrote the completion");
  } finally {
    await t.close();
  }
});

Deno.test("sampling: a declined request and sampling: deny are clear errors for the server", async () => {
  const t = await startService({ config: configWithServers([everythingStdio()]) });
  try {
    const asked = nextInteraction(t);
    const call = post(t, "/api/mcp/everything/call", {
      tool: "trigger-sampling-request",
      args: { prompt: "x" },
    });
    const interaction = await asked;
    await post(t, `/api/interactions/${interaction.id}`, { response: { approved: false } });
    const declined = (await call).body;
    assert.match(JSON.stringify(declined), /declined/);

    const denyConfig = configWithServers([everythingStdio({ sampling: "deny" })]);
    await readJsonResponse(await t.call("/api/config", { method: "PUT", json: denyConfig }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const denied = (await post(t, "/api/mcp/everything/call", {
      tool: "trigger-sampling-request",
      args: { prompt: "x" },
    })).body;
    assert.match(JSON.stringify(denied), /sampling: deny/);
    assert.deepEqual(t.service.interactions.list(), []);
  } finally {
    await t.close();
  }
});

Deno.test("sampling: auto answers without asking", async () => {
  const t = await startService({
    config: configWithServers([everythingStdio({ sampling: "auto" })]),
  });
  try {
    const created: string[] = [];
    t.service.events.subscribe((e) => e.type === "interaction.created" && created.push("x"));
    const result = (await post(t, "/api/mcp/everything/call", {
      tool: "trigger-sampling-request",
      args: { prompt: "Say hello" },
    })).body.result;
    assert.match(JSON.stringify(result.content), /demo/i);
    assert.deepEqual(created, []);
  } finally {
    await t.close();
  }
});

Deno.test("elicitation: form requests become interactions and the answer goes back", async () => {
  const t = await startService({ config: configWithServers([everythingStdio()]) });
  try {
    const asked = nextInteraction(t);
    const call = post(t, "/api/mcp/everything/call", {
      tool: "trigger-elicitation-request",
      args: {},
    });
    const interaction = await asked;
    assert.equal(interaction.kind, "elicitation");
    assert.equal(interaction.mode, "form");
    assert.equal(interaction.requestedSchema.type, "object");
    const required: string[] = interaction.requestedSchema.required ?? [];
    const content: Record<string, unknown> = {};
    for (const name of required) {
      const property = interaction.requestedSchema.properties[name];
      content[name] = property.enum?.[0] ?? property.oneOf?.[0]?.const ??
        (property.type === "boolean"
          ? true
          : property.type === "number" || property.type === "integer"
          ? 3
          : "Ada");
    }
    await post(t, `/api/interactions/${interaction.id}`, {
      response: { action: "accept", content },
    });
    const result = (await call).body.result;
    assert.match(JSON.stringify(result.content), /accept/);
  } finally {
    await t.close();
  }
});

Deno.test("elicitation: url mode is an interaction with the URL, nothing collected in-app", async () => {
  const t = await startService({ config: configWithServers([everythingStdio()]) });
  try {
    const asked = nextInteraction(t);
    const call = post(t, "/api/mcp/everything/call", {
      tool: "trigger-url-elicitation",
      args: { url: "https://example.com/authorize" },
    });
    const interaction = await asked;
    assert.deepEqual([interaction.kind, interaction.mode, interaction.url], [
      "elicitation",
      "url",
      "https://example.com/authorize",
    ]);
    assert.equal(interaction.requestedSchema, undefined);
    await post(t, `/api/interactions/${interaction.id}`, { response: { action: "decline" } });
    assert.match(JSON.stringify((await call).body), /decline/);
  } finally {
    await t.close();
  }
});

Deno.test("elicitation defaults are applied; remember: always turns sampling to auto in the config", async () => {
  const demo = { id: "demo", name: "Demo", transport: "stdio", command: "service:demo" };
  const t = await startService({ config: configWithServers([demo]) });
  try {
    const asked = nextInteraction(t);
    const call = post(t, "/api/mcp/demo/call", { tool: "ask_user", args: {} });
    const form = await asked;
    await post(t, `/api/interactions/${form.id}`, { response: { action: "accept", content: {} } });
    const answer = (await call).body.result;
    assert.equal(
      answer.structuredContent.content.name,
      "Ada",
      "the schema's defaults are filled in",
    );
    assert.equal(answer.structuredContent.content.subscribe, false);

    const sampling = nextInteraction(t);
    const summary = post(t, "/api/mcp/demo/call", {
      tool: "summarize_with_model",
      args: { text: "A long text." },
    });
    const request = await sampling;
    await post(t, `/api/interactions/${request.id}`, {
      response: { approved: true, remember: "always" },
    });
    assert.equal((await summary).status, 200);
    const onDisk = JSON.parse(await Deno.readTextFile(t.configPath));
    assert.equal(onDisk.mcpServers[0].sampling, "auto");
    const again = await post(t, "/api/mcp/demo/call", {
      tool: "summarize_with_model",
      args: { text: "More." },
    });
    assert.equal(again.status, 200);
    assert.deepEqual(t.service.interactions.list(), [], "no second question");
  } finally {
    await t.close();
  }
});

Deno.test("a remote server that goes away moves to error with 'cannot reach', then reconnects", async () => {
  const everything = await startEverything("streamableHttp");
  const t = await startService({
    config: configWithServers([{
      id: "remote",
      name: "Remote",
      transport: "http",
      url: everything.url,
      oauth: false,
    }]),
  });
  try {
    assert.equal((await post(t, "/api/mcp/remote/connect")).body.status, "connected");
    await everything.stop();
    const failed = await post(t, "/api/mcp/remote/call", { tool: "get-sum", args: { a: 1, b: 2 } });
    assert.equal(failed.status, 502);
    assert.match(failed.body.error.message, /cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp/);
    assert.equal(t.service.mcp.state("remote").status, "error");
  } finally {
    await t.close();
  }
});
