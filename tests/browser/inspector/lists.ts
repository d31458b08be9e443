/** The tool-server inspector in Chromium: server list, connect, tools, prompts, resources. */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { z } from "zod";
import { createDemoServer } from "../../../core/mcp/demo/server.ts";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { DEMO_LLM, DEMO_SERVER } from "../../_chat.ts";

/** A 1×1 PNG. */
const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/**
 * The demo server plus a tool with nested objects, lists, enums and defaults (it echoes its
 * arguments with a picture) and a binary resource.
 */
function richDemoServer() {
  const server = createDemoServer();
  server.registerTool("register", {
    title: "Register a team",
    description: "Echoes its arguments as JSON, with a picture.",
    inputSchema: z.object({
      team: z.string().describe("Team name"),
      size: z.enum(["small", "large"]).default("small"),
      private: z.boolean().default(true),
      address: z.object({ city: z.string(), zip: z.int().min(0).optional() })
        .describe("Where the team sits"),
      members: z.array(z.object({ name: z.string(), admin: z.boolean().optional() })),
      tags: z.array(z.string()).optional(),
      colors: z.array(z.enum(["red", "green", "blue"])).optional(),
    }),
  }, (args) => ({
    content: [
      { type: "text" as const, text: JSON.stringify(args) },
      { type: "image" as const, data: PIXEL, mimeType: "image/png" },
    ],
  }));
  server.registerResource("data", "demo://data.bin", {
    title: "Some bytes",
    mimeType: "application/octet-stream",
  }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: "application/octet-stream", blob: btoa("\x00\x01lass") }],
  }));
  return server;
}

const CONFIG = {
  llms: [DEMO_LLM],
  mcpServers: [
    DEMO_SERVER,
    // Used by no workspace, so nothing connects it before the page does.
    { ...DEMO_SERVER, id: "spare", name: "Spare demo" },
    { id: "broken", name: "Broken", transport: "stdio", command: "lass-no-such-command-42" },
  ],
  workspaces: [{ id: "w", name: "W", llmId: "demo", mcpServerIds: ["demo"] }],
  activeWorkspaceId: "w",
};

Deno.test({
  name: "web UI inspector: servers, connect and errors, tool form and raw JSON, prompts, resources",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({
      config: CONFIG,
      mcp: { demoServer: () => Promise.resolve(createMcpHandler(richDemoServer)) },
    });
    const page = await ui.page();
    const { t } = ui;
    try {
      await test.step("/inspector lists the configured servers with their state", async () => {
        await t.service.mcp.connect("demo");
        await page.goto(withToken(ui.base, "/inspector/demo"));
        await page.getByRole("link", { name: "Inspector", exact: true }).first().click();
        await page.waitForURL(`${ui.base}/inspector`);
        const rows = page.locator(".server-row");
        await rows.filter({ hasText: "Demo tools" }).getByText("connected", { exact: true })
          .waitFor();
        assert.deepEqual(await rows.locator("code").allInnerTexts(), ["demo", "spare", "broken"]);
        assert.match(await rows.nth(1).innerText(), /disconnected/);
        const demo = t.service.mcp.state("demo");
        assert.ok(demo.tools.length > 14, "the demo's tools and the test's `register`");
        assert.match(
          await rows.nth(0).innerText(),
          new RegExp(
            `${demo.tools.length} tools, ${demo.prompts.length} prompts, ${
              demo.resources.length + demo.resourceTemplates.length
            } resources`,
          ),
        );
      });

      await test.step("a server that fails to connect shows its error in place", async () => {
        await page.getByRole("link", { name: "Broken" }).click();
        await page.waitForURL(`${ui.base}/inspector/broken`);
        await page.getByRole("button", { name: "Connect", exact: true }).click();
        const alert = page.locator(".server-error");
        await alert.waitFor();
        assert.match(await alert.innerText(), /command not found: lass-no-such-command-42/);
        assert.equal(t.service.mcp.state("broken").status, "error");
        await page.getByRole("button", { name: "Connect", exact: true }).waitFor();
      });

      await test.step("the picker switches servers; Connect lists the tools", async () => {
        await page.getByLabel("Tool server").selectOption("spare");
        await page.waitForURL(`${ui.base}/inspector/spare`);
        assert.match(await page.locator(".inspector-head .badge").innerText(), /disconnected/);
        const offers = page.getByRole("tablist", { name: "What the server offers" });
        assert.equal(await offers.count(), 0, "no tabs of tools before connecting");
        await page.getByRole("button", { name: "Connect", exact: true }).click();
        const tools = t.service.mcp.state("demo").tools.length;
        await page.getByRole("tab", { name: new RegExp(`Tools ${tools}`) }).waitFor();
        assert.equal(t.service.mcp.state("spare").status, "connected");
        await page.getByRole("button", { name: "Disconnect" }).waitFor();
      });

      const tool = page.getByRole("article", { name: "Tool add" });
      const result = page.getByRole("region", { name: "Result" });

      await test.step("a form from the tool's schema calls it and shows the result", async () => {
        await page.getByRole("navigation", { name: "Tools" }).getByRole("button", { name: /^add/ })
          .click();
        assert.match(await tool.innerText(), /Adds two numbers and returns the sum\./);
        assert.match(await tool.locator(".hints").innerText(), /read-only[\s\S]*idempotent/);
        const a = tool.getByRole("spinbutton", { name: "a", exact: true });
        assert.equal(await a.getAttribute("type"), "number");
        assert.equal(await a.getAttribute("required"), "");
        assert.match(
          await tool.getByText("First addend", { exact: true }).innerText(),
          /First addend/,
        );
        await a.fill("2");
        await tool.getByRole("spinbutton", { name: "b", exact: true }).fill("3.5");
        await tool.getByRole("button", { name: "Call" }).click();
        await result.waitFor();
        assert.equal(await result.locator(".content-text").innerText(), "5.5");
        assert.match(await result.locator(".structured").innerText(), /"sum": 5\.5/);
        assert.match(await result.locator(".duration").innerText(), /^\d+(\.\d)? m?s$/);
        await result.getByText("Raw result").click();
        assert.match(await result.locator("details pre").innerText(), /"durationMs": \d+/);
        await screenshot(page, "inspector");
      });

      await test.step("raw JSON mode edits the same arguments", async () => {
        await tool.getByRole("button", { name: "Raw JSON" }).click();
        const box = tool.getByLabel("Arguments (JSON)");
        assert.deepEqual(JSON.parse(await box.inputValue()), { a: 2, b: 3.5 });
        await box.fill("{not json");
        await tool.getByRole("button", { name: "Call" }).click();
        await tool.getByRole("alert").getByText(/Not valid arguments/).waitFor();
        await box.fill('{"a": 40, "b": 2}');
        await tool.getByRole("button", { name: "Call" }).click();
        await result.locator(".content-text").getByText("42", { exact: true }).waitFor();
        // Back to the form: the fields show what the JSON said.
        await tool.getByRole("button", { name: "Raw JSON" }).click();
        assert.equal(
          await tool.getByRole("spinbutton", { name: "a", exact: true }).inputValue(),
          "40",
        );
        assert.equal(
          await tool.getByRole("spinbutton", { name: "b", exact: true }).inputValue(),
          "2",
        );
      });

      await test.step("a tool that fails shows its error result", async () => {
        await page.getByRole("navigation", { name: "Tools" }).getByRole("button", { name: /^fail/ })
          .click();
        const failing = page.getByRole("article", { name: "Tool fail" });
        await failing.getByRole("textbox", { name: "reason" }).fill("on purpose");
        await failing.getByRole("button", { name: "Call" }).click();
        const error = failing.getByRole("region", { name: "Result" });
        await error.getByRole("heading", { name: "Tool error" }).waitFor();
        assert.match(await error.innerText(), /The fail tool always fails: on purpose/);
        assert.match(await error.locator(".badge").innerText(), /isError/);
      });

      await test.step("nested objects, lists, enums and defaults in a generated form", async () => {
        await page.getByRole("navigation", { name: "Tools" })
          .getByRole("button", { name: /^register/ }).click();
        const form = page.getByRole("article", { name: "Tool register" });
        assert.equal(await form.getByRole("combobox", { name: "size" }).inputValue(), "0");
        assert.equal(await form.getByRole("checkbox", { name: "private" }).isChecked(), true);
        await form.getByRole("textbox", { name: "team" }).fill("Owls");
        await form.getByRole("combobox", { name: "size" }).selectOption("large");
        await form.getByRole("checkbox", { name: "private" }).uncheck();
        const address = form.getByRole("group", { name: "address" });
        await address.getByRole("textbox", { name: "city" }).fill("Oslo");
        await address.getByRole("spinbutton", { name: "zip" }).fill("150");
        await form.getByRole("button", { name: "Add members" }).click();
        await form.getByRole("button", { name: "Add members" }).click();
        const first = form.getByRole("group", { name: "members 1" });
        await first.getByRole("textbox", { name: "name" }).fill("Ada");
        await first.getByRole("checkbox", { name: "admin" }).check();
        await form.getByRole("group", { name: "members 2" }).getByRole("textbox").fill("Bob");
        await form.getByRole("button", { name: "Remove members 1" }).click();
        await form.getByRole("button", { name: "Add tags" }).click();
        await form.getByRole("textbox", { name: "tags 1" }).fill("birds");
        await form.getByRole("checkbox", { name: "green" }).check();
        const sent = {
          team: "Owls",
          size: "large",
          private: false,
          address: { city: "Oslo", zip: 150 },
          members: [{ name: "Bob" }],
          tags: ["birds"],
          colors: ["green"],
        };
        await form.getByRole("button", { name: "Raw JSON" }).click();
        assert.deepEqual(JSON.parse(await form.getByLabel("Arguments (JSON)").inputValue()), sent);
        await form.getByRole("button", { name: "Raw JSON" }).click();
        await form.getByRole("button", { name: "Call" }).click();
        const answer = form.getByRole("region", { name: "Result" });
        await answer.waitFor();
        assert.deepEqual(JSON.parse(await answer.locator(".content-text").innerText()), sent);
        const image = answer.getByRole("img", { name: "image (image/png)" });
        assert.equal(await image.getAttribute("src"), `data:image/png;base64,${PIXEL}`);
      });

      await test.step("a prompt gets its arguments and shows its messages", async () => {
        await page.getByRole("tab", { name: /Prompts 2/ }).click();
        await page.getByRole("navigation", { name: "Prompts" })
          .getByRole("button", { name: /plan_trip/ }).click();
        const prompt = page.getByRole("article", { name: "Prompt plan_trip" });
        await prompt.getByLabel("destination").fill("Oslo");
        await prompt.getByLabel("days").fill("3");
        await prompt.getByRole("button", { name: "Get prompt" }).click();
        const messages = prompt.getByRole("region", { name: "Messages" });
        await messages.waitFor();
        assert.match(await messages.innerText(), /A 3-day trip to Oslo/);
        const roles = await messages.locator(".role").allInnerTexts();
        assert.deepEqual(roles.map((role) => role.toLowerCase()), ["user", "assistant"]);
        assert.match(await messages.innerText(), /Plan a 3-day trip to Oslo/);
      });

      await test.step("resources are read; JSON shows pretty; templates take their variables", async () => {
        await page.getByRole("tab", { name: /Resources 8/ }).click();
        await page.getByRole("navigation", { name: "Resources", exact: true })
          .getByRole("button", { name: /demo:\/\/config\.json/ }).click();
        const resource = page.getByRole("article", { name: "Resource demo://config.json" });
        await resource.getByRole("button", { name: "Read" }).click();
        const contents = resource.getByRole("region", { name: "Contents" });
        await contents.waitFor();
        assert.match(
          await contents.locator("pre.json").first().innerText(),
          /\n {2}"name": "lass-demo"/,
        );

        // Binary contents: their size and a download.
        await page.getByRole("navigation", { name: "Resources", exact: true })
          .getByRole("button", { name: /demo:\/\/data\.bin/ }).click();
        const blob = page.getByRole("article", { name: "Resource demo://data.bin" });
        await blob.getByRole("button", { name: "Read" }).click();
        await blob.getByText("application/octet-stream, 6 bytes").waitFor();
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          blob.getByRole("button", { name: "Download data.bin" }).click(),
        ]);
        assert.equal(download.suggestedFilename(), "data.bin");
        assert.deepEqual(
          [...await readFile(await download.path())],
          [0, 1, ..."lass"].map((c) => typeof c === "number" ? c : c.charCodeAt(0)),
        );

        await page.getByRole("navigation", { name: "Resource templates" })
          .getByRole("button", { name: /demo:\/\/notes\/\{id\}/ }).click();
        const template = page.getByRole("article", { name: "Template demo://notes/{id}" });
        await template.getByRole("combobox", { name: "id" }).fill("groceries");
        assert.equal(await template.locator("output").innerText(), "demo://notes/groceries");
        await template.getByRole("button", { name: "Read" }).click();
        await template.getByText("Milk, bread, three apples, coffee.", { exact: true }).waitFor();
        // An unknown note: the server's error, in place.
        await template.getByRole("combobox", { name: "id" }).fill("nope");
        await template.getByRole("button", { name: "Read" }).click();
        const alert = template.getByRole("alert");
        await alert.waitFor();
        assert.match(await alert.innerText(), /No note "nope"/);
      });

      await test.step("Disconnect goes back to the Connect button", async () => {
        await page.getByRole("button", { name: "Disconnect" }).click();
        await page.getByRole("button", { name: "Connect", exact: true }).waitFor();
        assert.equal(t.service.mcp.state("spare").status, "disconnected");
      });

      // The 502 of the unknown note is expected; nothing else may go wrong on the page.
      assert.deepEqual(ui.problems.filter((p) => !/status of 502/.test(p)), []);
    } finally {
      await ui.close();
    }
  },
});
