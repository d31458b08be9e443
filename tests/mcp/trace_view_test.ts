/** MCP Apps bridge messages in the wire trace: `POST /api/mcp/:id/trace`, and the browser host posting them. */
import assert from "node:assert/strict";
import { skipBrowser, startUi, withToken } from "../_browser.ts";
import { chatConfig, DEMO_SERVER } from "../_chat.ts";
import { configWithServers, type Json, post, readJsonResponse, startService } from "../_helpers.ts";

Deno.test("POST /api/mcp/:id/trace records view-out and view-in messages in the server's trace", async () => {
  const t = await startService({ config: configWithServers([DEMO_SERVER]) });
  try {
    const request = { jsonrpc: "2.0", id: 0, method: "ui/initialize", params: { appInfo: {} } };
    const answer = { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2026-01-26" } };
    const recorded = await post(t, "/api/mcp/demo/trace", {
      messages: [
        { dir: "view-in", message: request },
        { dir: "view-out", message: answer, ms: 4.5 },
      ],
    });
    assert.deepEqual(recorded, { status: 200, body: { ok: true, recorded: 2 } });
    const { body } = await readJsonResponse(await t.call("/api/mcp/demo/trace"));
    const lines: Json[] = body.messages;
    assert.deepEqual(lines.map((line) => [line.dir, line.message]), [
      ["view-in", request],
      ["view-out", answer],
    ]);
    assert.equal(lines[1].ms, 4.5);
    assert.equal(lines[0].ms, undefined);
    assert.equal(lines[1].seq, lines[0].seq + 1);
    assert.equal(lines[0].serverId, "demo");
    assert.equal(lines[0].bytes, JSON.stringify(request).length);

    const tooMany = Array.from({ length: 101 }, () => ({ dir: "view-in", message: request }));
    for (
      const [body, path] of [
        [{ messages: tooMany }, "messages"],
        [{ messages: [] }, "messages"],
        [{ messages: [{ dir: "out", message: request }] }, "messages.0.dir"],
        [{ messages: [{ dir: "view-in", message: "text" }] }, "messages.0.message"],
        [{ messages: [{ dir: "view-in", message: request, ms: -1 }] }, "messages.0.ms"],
      ] as const
    ) {
      const bad = await post(t, "/api/mcp/demo/trace", body);
      assert.equal(bad.status, 400, path);
      assert.equal(bad.body.error.code, "invalid-request");
      assert.equal(bad.body.error.details[0].path, path);
    }
    const unknown = await post(t, "/api/mcp/nope/trace", {
      messages: [{ dir: "view-in", message: request }],
    });
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, "not-found"]);
  } finally {
    await t.close();
  }
});

Deno.test({
  name: "web UI: an MCP App's bridge messages land in its server's trace, responses with ms",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({
      config: chatConfig({ servers: [DEMO_SERVER], workspace: { generativeUi: false } }),
    });
    try {
      const page = await ui.page();
      await page.goto(withToken(ui.base));
      await page.getByRole("button", { name: "Send" }).waitFor();
      await page.getByLabel("Message", { exact: true }).fill('show dashboard "Ops board"');
      await page.keyboard.press("Enter");
      await page.locator(".mcp-app[data-status=ready]").waitFor();
      const deadline = Date.now() + 20_000;
      let lines: Json[] = [];
      const initialized = () => {
        const init = lines.find((line) =>
          line.dir === "view-in" && line.message.method === "ui/initialize"
        );
        return init &&
          lines.find((line) =>
            line.dir === "view-out" && line.message.id === init.message.id &&
            line.message.result !== undefined
          );
      };
      while (
        !initialized() || !lines.some((l) => l.message.method === "ui/notifications/tool-result")
      ) {
        assert.ok(
          Date.now() < deadline,
          `no ui/initialize answer and tool-result in ${
            JSON.stringify(lines.map((l) => [l.dir, l.message.method]))
          }`,
        );
        await new Promise((resolve) => setTimeout(resolve, 50));
        lines = (await readJsonResponse(await ui.t.call("/api/mcp/demo/trace"))).body.messages;
      }
      const answer = initialized();
      assert.equal(typeof answer.ms, "number");
      assert.ok(answer.result === undefined && answer.message.result.hostInfo?.name === "Lass");
      const toolResult = lines.find((l) => l.message.method === "ui/notifications/tool-result");
      assert.equal(toolResult.dir, "view-out");
      // The server's own wire sits in the same trace: the show_dashboard call came first.
      const call = lines.find((l) => l.dir === "out" && l.message.method === "tools/call");
      assert.ok(call && call.seq < toolResult.seq);
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
