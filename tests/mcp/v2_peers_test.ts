/**
 * Lass against the SDK v2 fixture server in each era and transport: the negotiated era, and the
 * same features (elicitation form and url, sampling, roots, logs, list changes, prompts,
 * resources) through the same interactions and events. And `auto` behind broken gateways.
 */
import assert from "node:assert/strict";
import {
  configWithServers,
  type Json,
  post,
  startService,
  type TestService,
  waitForEvent,
} from "../_helpers.ts";
import { GATEWAY, type HttpFixture, startHttp, V2_SERVER } from "../_v2_fixtures.ts";
import { startEverything } from "../_everything.ts";

async function nextInteraction(t: TestService): Promise<Json> {
  return (await waitForEvent(t, (e) => e.type === "interaction.created", {
    what: "interaction.created",
  })).data.interaction;
}

/** Calls a tool while answering the one interaction it causes. */
async function callAnswering(
  t: TestService,
  tool: string,
  args: Record<string, unknown>,
  answer: (interaction: Json) => Record<string, unknown>,
): Promise<{ interaction: Json; result: Json }> {
  const asked = nextInteraction(t);
  const call = post(t, "/api/mcp/v2/call", { tool, args });
  const interaction = await asked;
  const answered = await post(t, `/api/interactions/${interaction.id}`, answer(interaction));
  assert.equal(answered.status, 200, JSON.stringify(answered.body));
  const response = await call;
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return { interaction, result: response.body.result };
}

const text = (result: Json) => result.content.map((block: Json) => block.text).join("\n");

/** Every feature, on whatever era the record negotiates. */
async function exerciseFeatures(t: TestService, expectedEra: "modern" | "legacy") {
  const state = (await post(t, "/api/mcp/v2/connect")).body;
  assert.equal(state.status, "connected", state.error);
  assert.equal(state.era, expectedEra);
  assert.match(state.protocolVersion, expectedEra === "modern" ? /^2026-07-28$/ : /^2025-/);

  const echo = await post(t, "/api/mcp/v2/call", { tool: "echo", args: { text: "hi" } });
  assert.equal(text(echo.body.result), "hi");
  // A strict 2026 server checks the Mcp-Param-* mirror of marked arguments (SEP-2243).
  const where = await post(t, "/api/mcp/v2/call", { tool: "where", args: { region: "Zürich" } });
  assert.equal(where.status, 200, JSON.stringify(where.body));
  assert.equal(text(where.body.result), "region Zürich");

  const form = await callAnswering(t, "ask", { question: "Your name?" }, () => ({
    response: { action: "accept", content: { answer: "Ada" } },
  }));
  assert.equal(form.interaction.kind, "elicitation");
  assert.equal(form.interaction.mode, "form");
  assert.equal(form.interaction.message, "Your name?");
  assert.equal(text(form.result), "answer: Ada");

  const url = await callAnswering(t, "ask_url", { url: "https://example.com/consent" }, () => ({
    response: { action: "accept" },
  }));
  assert.equal(url.interaction.mode, "url");
  assert.equal(url.interaction.url, "https://example.com/consent");
  assert.equal(text(url.result), "url: accept");

  const sampled = await callAnswering(t, "sample", { prompt: "Say hello" }, (interaction) => {
    assert.equal(interaction.kind, "sampling");
    return { response: { approved: true } };
  });
  assert.match(text(sampled.result), /demo/i, "the demo model answered the sampling request");

  const roots = await post(t, "/api/mcp/v2/call", { tool: "roots", args: {} });
  assert.equal(text(roots.body.result), "(no roots)");

  const logged = waitForEvent(
    t,
    (e) => e.type === "mcp.log" && e.data.serverId === "v2" && e.data.message === "from the test",
    { what: "mcp.log `from the test`" },
  );
  await post(t, "/api/mcp/v2/call", {
    tool: "log",
    args: { level: "info", message: "from the test" },
  });
  assert.equal((await logged).data.level, "info");

  const changed = waitForEvent(
    t,
    (e) =>
      e.type === "mcp.notification" && e.data.serverId === "v2" &&
      e.data.method === "notifications/tools/list_changed",
    { what: "a tools list_changed notification" },
  );
  const before = t.service.mcp.state("v2").tools.some((tool) => tool.name === "extra");
  await post(t, "/api/mcp/v2/call", { tool: "toggle_tool", args: {} });
  await changed;
  for (let i = 0; i < 200; i++) {
    if (t.service.mcp.state("v2").tools.some((tool) => tool.name === "extra") !== before) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.notEqual(
    t.service.mcp.state("v2").tools.some((tool) => tool.name === "extra"),
    before,
    "the tool list was read again after list_changed",
  );

  const prompt = await post(t, "/api/mcp/v2/prompt", { name: "greet", args: { name: "Ada" } });
  assert.match(JSON.stringify(prompt.body.messages), /Greet Ada/);
  const readme = await post(t, "/api/mcp/v2/resource", { uri: "fixture://readme" });
  assert.equal(readme.body.contents[0].text, "v2 fixture");
}

const server = (extra: Record<string, unknown>) => ({
  id: "v2",
  name: "V2 fixture",
  sampling: "ask",
  timeoutMs: 20_000,
  ...extra,
});

for (const era of ["modern", "legacy"] as const) {
  Deno.test(`v2 server, ${era} only, over stdio: auto reaches it as ${era}, every feature works`, async () => {
    const t = await startService({
      config: configWithServers([server({
        transport: "stdio",
        command: Deno.execPath(),
        args: ["run", "-A", V2_SERVER, "--era", era, "--transport", "stdio"],
      })]),
    });
    try {
      await exerciseFeatures(t, era);
    } finally {
      await t.close();
    }
  });

  Deno.test(`v2 server, ${era} only, over Streamable HTTP: auto reaches it as ${era}, every feature works`, async () => {
    const peer = await startHttp(V2_SERVER, ["--era", era, "--transport", "http"]);
    const t = await startService({
      config: configWithServers([server({ transport: "http", url: peer.url.href, oauth: false })]),
    });
    try {
      await exerciseFeatures(t, era);
    } finally {
      await t.close();
      await peer.stop();
    }
  });
}

Deno.test("a dual-era server: auto speaks 2026-07-28, legacy speaks 2025, both work", async () => {
  const peer = await startHttp(V2_SERVER, ["--era", "dual", "--transport", "http"]);
  try {
    for (const [setting, era] of [["auto", "modern"], ["legacy", "legacy"]] as const) {
      const t = await startService({
        config: configWithServers([
          server({ transport: "http", url: peer.url.href, oauth: false, protocolEra: setting }),
        ]),
      });
      try {
        await exerciseFeatures(t, era);
      } finally {
        await t.close();
      }
    }
  } finally {
    await peer.stop();
  }
});

for (const mode of ["5xx", "empty200", "idnull", "hang"] as const) {
  Deno.test(`auto behind a gateway that answers the 2026 probe badly (${mode}) connects as legacy`, async () => {
    const gateway: HttpFixture = await startHttp(GATEWAY, ["--mode", mode]);
    const t = await startService({
      config: configWithServers([{
        id: "gw",
        name: "Gateway",
        transport: "http",
        url: gateway.url.href,
        oauth: false,
        timeoutMs: 6000,
      }]),
    });
    try {
      const state = (await post(t, "/api/mcp/gw/connect")).body;
      assert.equal(state.status, "connected", state.error);
      assert.equal(state.era, "legacy");
      const sum = await post(t, "/api/mcp/gw/call", { tool: "echo", args: { text: "through" } });
      assert.match(JSON.stringify(sum.body.result), /through/);
    } finally {
      await t.close();
      await gateway.stop();
    }
  });
}

Deno.test("a 2025 server that needs the user at a URL first (-32042): a url interaction, then the call is retried", async () => {
  const t = await startService({
    config: configWithServers([server({
      transport: "stdio",
      command: Deno.execPath(),
      args: ["run", "-A", V2_SERVER, "--era", "legacy", "--transport", "stdio"],
    })]),
  });
  try {
    const { interaction, result } = await callAnswering(t, "needs_consent", {}, () => ({
      response: { action: "accept" },
    }));
    assert.equal(interaction.kind, "elicitation");
    assert.equal(interaction.mode, "url");
    assert.equal(interaction.url, "https://example.com/consent");
    assert.equal(text(result), "consented");
  } finally {
    await t.close();
  }
});

Deno.test("an http record pointed at an SSE-only endpoint says to use transport sse", async () => {
  const everything = await startEverything("sse");
  const t = await startService({
    config: configWithServers([{
      id: "wrong",
      name: "Wrong transport",
      transport: "http",
      url: everything.url,
      oauth: false,
    }]),
  });
  try {
    const state = (await post(t, "/api/mcp/wrong/connect")).body;
    assert.equal(state.status, "error");
    assert.match(state.error, /this looks like an SSE endpoint: use transport sse/);
    assert.doesNotMatch(state.error, /<html|<!DOCTYPE/i);
  } finally {
    await t.close();
    await everything.stop();
  }
});
