/// <reference lib="dom" />
/** The inspector's recordings in Chromium: Save as cassette, and Verify against a changed cassette. */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { skipBrowser, startUi, withToken } from "../../_browser.ts";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { post, TOKEN } from "../../_helpers.ts";
import { editor } from "../../_settings.ts";

const VERSIONED = new URL("../../fixtures/versioned_server.ts", import.meta.url).pathname;

const CONFIG = {
  mcpServers: [{
    id: "greeter",
    name: "Greeter",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", VERSIONED],
  }],
  workspaces: [{ id: "w", name: "W", mcpServerIds: ["greeter"] }],
  activeWorkspaceId: "w",
};

Deno.test({
  name:
    "web UI inspector: Save as cassette downloads the session's cassette; Verify shows the drift of a changed answer; Run conformance lists each scenario",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: CONFIG });
    const page = await ui.page();
    page.setDefaultTimeout(15_000);
    try {
      await ui.t.service.mcp.connect("greeter");
      await post(ui.t, "/api/mcp/greeter/call", { tool: "greet", args: { name: "Ada" } });
      await page.goto(withToken(ui.base, "/inspector/greeter"));
      const recordings = page.getByRole("group", { name: "Recordings" });

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        recordings.getByRole("button", { name: "Save as cassette" }).click(),
      ]);
      assert.equal(download.suggestedFilename(), "greeter.cassette.json");
      const saved = join(ui.t.dir, "saved.cassette.json");
      await download.saveAs(saved);
      const text = await readFile(saved, "utf8");
      const cassette = JSON.parse(text);
      assert.equal(cassette.lassCassette, 1);
      assert.ok(
        cassette.exchanges.some((e: { request: { params?: { name?: string } } }) =>
          e.request.params?.name === "greet"
        ),
      );

      // An outside client through the proxy: its session is a cassette of its own.
      const client = new Client({ name: "outside-ui", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${ui.base}/mcp/greeter`), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        }),
      );
      await client.callTool({ name: "greet", arguments: { name: "Proxy" } });
      await client.close();
      const picker = recordings.getByLabel("of", { exact: true });
      await picker.locator("option", { hasText: "Proxy: outside-ui 1.0.0" }).waitFor({
        state: "attached",
      });
      await picker.selectOption({ index: 1 });
      const [proxied] = await Promise.all([
        page.waitForEvent("download"),
        recordings.getByRole("button", { name: "Save as cassette" }).click(),
      ]);
      const proxiedPath = join(ui.t.dir, "proxied.cassette.json");
      await proxied.saveAs(proxiedPath);
      const calls = JSON.parse(await readFile(proxiedPath, "utf8")).exchanges
        .filter((e: { request: { method: string } }) => e.request.method === "tools/call")
        .map((e: { request: { params: { arguments: unknown } } }) => e.request.params.arguments);
      assert.deepEqual(calls, [{ name: "Proxy" }]);

      // The same cassette, with the answer a newer server would give: verify shows the drift.
      const changed = join(ui.t.dir, "changed.cassette.json");
      await writeFile(changed, text.replace("Hello, Ada!", "Howdy, Ada!"));
      await recordings.getByLabel("Verify against a cassette").setInputFiles(changed);
      const report = recordings.getByRole("status");
      await report.getByText(/Drift: \d+ same, 1 drifted/).waitFor();
      await report.getByText("/result/content/0/text").waitFor();
      assert.match(await report.innerText(), /recorded: "Howdy, Ada!"\s+live: "Hello, Ada!"/);

      await recordings.getByLabel("Verify against a cassette").setInputFiles(saved);
      await report.getByText(/Same as recorded/).waitFor();

      // Run conformance: the suite's scenarios through the proxy, each row as it finishes.
      const conformance = page.getByRole("group", { name: "Conformance" });
      await conformance.getByLabel("scenarios").fill("server-initialize, prompts-get-simple");
      await conformance.getByRole("button", { name: "Run conformance" }).click();
      const outcome = conformance.getByRole("status");
      await outcome.getByText(/Not conformant: 1 passed, 1 failed, 0 skipped \(via proxy/).waitFor({
        timeout: 60_000,
      });
      const rows = await outcome.locator("tbody tr").allInnerTexts();
      assert.deepEqual(rows.map((row) => row.split("\t").slice(0, 2)), [
        ["server-initialize", "passed"],
        ["prompts-get-simple", "failed"],
      ]);
      assert.match(rows[1], /PromptsGetSimple: Failed: MCP error/);

      // The saved cassette as a new server of transport replay: tested, then saved.
      await page.goto(withToken(ui.base, "/settings/servers/new"));
      const form = editor(page);
      await form.getByLabel("Id", { exact: true }).fill("replayed");
      await form.getByLabel("Name", { exact: true }).fill("Replayed greeter");
      await form.getByLabel("Transport").selectOption("replay");
      await form.getByLabel("Cassette").fill("saved.cassette.json");
      await form.getByLabel("Speed").fill("0");
      await form.getByRole("button", { name: "Test", exact: true }).click();
      await form.getByRole("region", { name: "Test result" }).getByText(
        /Connected in .* to versioned 1\.0\.0.* 2 tools/,
      ).waitFor();
      await form.getByRole("button", { name: "Save" }).click();
      await form.getByRole("status").getByText("Saved").waitFor();
      const stored = JSON.parse(await readFile(ui.t.configPath, "utf8"));
      assert.deepEqual(stored.mcpServers[1], {
        id: "replayed",
        name: "Replayed greeter",
        transport: "replay",
        cassette: "saved.cassette.json",
        speed: 0,
      });
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
