/// <reference lib="dom" />
/** The inspector's proxy section in Chromium: the client snippets, the connected clients, History by client. */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { DEMO_LLM, DEMO_SERVER } from "../../_chat.ts";
import { TOKEN, waitUntil } from "../../_helpers.ts";

const CONFIG = {
  llms: [DEMO_LLM],
  mcpServers: [DEMO_SERVER],
  workspaces: [{ id: "w", name: "W", llmId: "demo", mcpServerIds: ["demo"] }],
  activeWorkspaceId: "w",
};

Deno.test({
  name: "web UI inspector: a proxied client shows with its calls, and the snippets name the proxy",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: CONFIG });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    const outside = new Client({ name: "outside-agent", version: "4.5.6" }, { capabilities: {} });
    try {
      await ui.t.service.mcp.connect("demo");
      await page.goto(withToken(ui.base, "/inspector/demo"));
      const proxy = page.getByRole("region", { name: "Proxy" });
      await proxy.getByText("0 clients connected").waitFor();

      await proxy.getByText("Use from your client").click();
      await proxy.getByRole("combobox", { name: "Client" }).selectOption({ label: "Cursor" });
      const snippets = await proxy.locator(".proxy-snippet pre").allInnerTexts();
      assert.equal(JSON.parse(snippets[0]).mcpServers.demo.url, `${ui.base}/mcp/demo`);
      assert.equal(
        JSON.parse(snippets[0]).mcpServers.demo.headers.Authorization,
        `Bearer ${TOKEN}`,
      );
      assert.deepEqual(JSON.parse(snippets[1]).mcpServers.demo.args.slice(-4, -2), [
        "proxy",
        "demo",
      ]);

      await outside.connect(
        new StreamableHTTPClientTransport(new URL(`${ui.base}/mcp/demo`), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        }),
      );
      await outside.callTool({ name: "echo", arguments: { text: "from outside" } });
      await proxy.getByText("1 client connected").waitFor();
      await proxy.locator(".proxy-clients li").filter({ hasText: "outside-agent 4.5.6" }).waitFor();

      const history = page.getByRole("list", { name: "Requests and notifications, newest first" });
      const proxiedCall = history.locator('.timeline-item[data-method="tools/call"]').filter({
        hasText: "outside-agent",
      });
      await proxiedCall.waitFor();
      await page.getByRole("combobox", { name: "From" }).selectOption({
        label: "Lass (chat, inspector)",
      });
      await proxiedCall.waitFor({ state: "detached" });
      await page.getByRole("combobox", { name: "From" }).selectOption({
        label: "outside-agent (proxy)",
      });
      await proxiedCall.waitFor();
      assert.equal(
        await history.locator('.timeline-item[data-method="tools/list"]').filter({
          hasNotText: "outside-agent",
        }).count(),
        0,
        "only the proxied client's lines are shown",
      );
      await screenshot(page, "inspector-proxy");

      // A hold switched on in the inspector: the next call waits as a card, forwarded edited.
      await page.getByRole("combobox", { name: "From" }).selectOption({ label: "everyone" });
      await proxy.getByRole("checkbox", { name: "tools/call" }).check();
      await waitUntil(async () => {
        const answer = await (await ui.t.call("/api/mcp/demo/proxy")).json();
        return answer.holds.includes("tools/call");
      }, "the hold to be set");
      const call = outside.callTool({ name: "echo", arguments: { text: "as sent" } });
      const card = page.getByRole("region", { name: "Held: tools/call (demo)" });
      await card.waitFor();
      await card.getByRole("textbox", { name: "Params" }).fill(
        JSON.stringify({ name: "echo", arguments: { text: "edited in the card" } }),
      );
      await card.getByRole("button", { name: "Forward" }).click();
      const result = await call as { content: { text: string }[] };
      assert.equal(result.content[0].text, "edited in the card");
      await card.waitFor({ state: "detached" });
      assert.deepEqual(ui.problems, []);
    } finally {
      await outside.close().catch(() => {});
      await ui.close();
    }
  },
});
