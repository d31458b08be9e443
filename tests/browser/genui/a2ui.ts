/** A2UI in Chromium: surfaces in the chat (binding, actions, reload), the UI playground, catalog previews. */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, waitForCount, withToken } from "../../_browser.ts";
import { chatConfig, DEMO_SERVER } from "../../_chat.ts";
import { onPrimaryOf } from "../../../islands/genui/a2ui_theme.ts";
import { bannerCatalog } from "../../_genui.ts";
import { type Json, waitForEvent } from "../../_helpers.ts";
import { buildUi } from "../../../scripts/build_ui.ts";

/** A catalog of 50 small components, for the preview's request cap. */
function manyCatalog() {
  const components = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`Chip${i}`, {
    type: "object",
    properties: { component: { const: `Chip${i}` }, label: { type: "string" } },
    required: ["component", "label"],
  }]));
  return { catalogId: "https://example.com/catalogs/many/v1/catalog.json", components };
}

/** The demo model answers a request for a form with the render tool's sign-up form. */
const FORM_PROMPT = "show me a sign-up form";

Deno.test({
  name: "web UI A2UI: chat surfaces bind and send actions, render again on reload; playground",
  ignore: skipBrowser,
  fn: async (test) => {
    const base = chatConfig({
      servers: [],
      workspace: { llmId: "demo", generativeUi: { theme: { primaryColor: "#aa3300" } } },
    });
    const ui = await startUi({
      config: {
        ...base,
        mcpServers: [DEMO_SERVER],
        // A second workspace with the demo tool server, whose a2ui_form tool returns A2UI.
        workspaces: [
          ...(base.workspaces as Json[]),
          { id: "t", name: "Tools", llmId: "demo", mcpServerIds: ["demo"] },
        ],
        catalogs: [
          { id: "banners", catalog: bannerCatalog() },
          { id: "many", catalog: manyCatalog() },
        ],
      },
    });
    const page = await ui.page();
    // The A2UI renderer warns once when its Text has no markdown renderer.
    const warnings: string[] = [];
    page.on("console", (entry) => {
      if (entry.type() === "warning") warnings.push(entry.text());
    });
    const { t } = ui;
    const message = page.getByLabel("Message", { exact: true });
    let sessionId = "";
    try {
      await test.step("the render tool's form is drawn in its tool card, in the theme", async () => {
        await page.goto(withToken(ui.base));
        await message.fill(FORM_PROMPT);
        await message.press("Enter");
        const card = page.getByRole("region", { name: "Tool call render_ui on generative UI" });
        const surface = card.getByRole("region", { name: "UI: Sign up" });
        await surface.getByRole("heading", { name: "Sign up" }).first().waitFor();
        await surface.getByLabel("Email").waitFor();
        // Marked while the turn may still stream: later chunks must not draw it again.
        await surface.locator("a2ui-surface").evaluate((element) => (element as Json).mark = 1);
        const button = surface.getByRole("button", { name: "Create account" });
        assert.equal(
          await button.evaluate((element) =>
            (globalThis as Json).getComputedStyle(element).backgroundColor
          ),
          "rgb(170, 51, 0)",
          "the workspace's primaryColor",
        );
        await page.locator(".turn-done").waitFor();
        await page.waitForURL(/\/chat\/[\w-]+$/);
        sessionId = decodeURIComponent(page.url().split("/chat/")[1]);
        assert.equal(
          await surface.locator("a2ui-surface").evaluate((element) => (element as Json).mark),
          1,
          "the same surface element after the turn ended",
        );
      });

      await test.step("in dark mode a themed button's text contrasts with primaryColor", async () => {
        assert.equal(onPrimaryOf("#aa3300"), "#ffffff");
        assert.equal(onPrimaryOf("#ffdd00"), "#000000");
        assert.equal(onPrimaryOf("#fd0"), "#000000");
        assert.equal(onPrimaryOf("red"), undefined);
        await page.emulateMedia({ colorScheme: "dark" });
        const button = page.getByRole("region", { name: "UI: Sign up" })
          .getByRole("button", { name: "Create account" });
        const colors = await button.evaluate((element) => {
          const style = (globalThis as Json).getComputedStyle(element);
          return [style.backgroundColor, style.color];
        });
        assert.deepEqual(colors, ["rgb(170, 51, 0)", "rgb(255, 255, 255)"]);
        await page.emulateMedia({ colorScheme: "light" });
      });

      await test.step("what was typed stays when the chat is left and opened again", async () => {
        const surface = page.getByRole("region", { name: "UI: Sign up" });
        await surface.getByLabel("Email").fill("kept@example.com");
        for (let i = 0; i < 3; i++) {
          await page.getByRole("link", { name: "UI playground" }).click();
          await page.getByLabel("Render-tool input (JSON)").waitFor();
          await page.goBack();
          await surface.getByLabel("Email").waitFor();
        }
        assert.equal(await surface.getByLabel("Email").inputValue(), "kept@example.com");
        assert.equal(await page.locator("a2ui-surface").count(), 1, "one element per surface");
        await surface.getByLabel("Email").fill("");
      });

      await test.step("typing updates the model; the button sends a ui.action and a new turn", async () => {
        const surface = page.getByRole("region", { name: "UI: Sign up" });
        await surface.getByLabel("Email").fill("ada@example.com");
        const recorded = waitForEvent(t, (event) => event.type === "ui.action");
        let actions = 0;
        const stop = t.service.events.subscribe((event: Json) => {
          if (event.type === "ui.action") actions++;
        });
        await surface.getByRole("button", { name: "Create account" }).click();
        const event = await recorded;
        assert.equal(event.data.name, "signup");
        assert.deepEqual(event.data.context, { email: "ada@example.com" });
        assert.equal(event.data.sessionId, sessionId);
        assert.equal(event.data.sourceComponentId, "submit");
        assert.equal(event.data.tool, "render_ui");
        assert.equal(event.data.serverId, undefined);
        assert.equal(
          event.data.runId,
          await page.locator(".turn").first().getAttribute("data-run-id"),
          "the run that drew the surface",
        );
        await page.locator(".turn-done").nth(1).waitFor();
        stop();
        assert.equal(actions, 1, "one click, one action (the card was drawn four times)");
        const turn = page.locator(".turn").nth(1);
        assert.match(await turn.locator(".msg-user").innerText(), /UI action "signup"/);
        assert.match(
          await turn.locator(".msg-assistant").innerText(),
          /Thanks, ada@example\.com, you are signed up\./,
        );
        await surface.evaluate((element) => element.scrollIntoView({ block: "start" }));
        await screenshot(page, "a2ui-chat");
      });

      await test.step("a reload draws the surface again, and its actions still work", async () => {
        await page.reload();
        const surface = page.getByRole("region", { name: "UI: Sign up" });
        const email = surface.getByLabel("Email");
        await email.waitFor();
        assert.equal(await email.inputValue(), "", "a reopened surface starts from its data");
        await email.fill("grace@example.com");
        await surface.getByRole("button", { name: "Create account" }).click();
        await page.locator(".turn-done").nth(2).waitFor();
        assert.match(await page.locator(".turn").nth(2).innerText(), /Thanks, grace@example\.com/);
        const stored = await t.service.sessions.get(sessionId);
        const users: string[] = stored.messages.filter((m: Json) => m.role === "user")
          .map((m: Json) => m.content);
        assert.equal(users.length, 3);
        assert.match(users[1], /^UI action "signup" on "Sign up" \(surface [\w-]+\)/);
        const action = JSON.parse(users[1].split("\n")[1]);
        assert.equal(action.version, "v0.9");
        assert.deepEqual(action.action.context, { email: "ada@example.com" });
      });

      await test.step("broken A2UI messages in a stored chat show a card naming each problem", async () => {
        const stored: Json = await t.service.sessions.get(sessionId);
        const calls = stored.meta.toolCalls as Record<string, Json>;
        const [callId] = Object.keys(calls);
        calls[callId].ui.messages = [
          { version: "v0.9", createSurface: { surfaceId: "x", catalogId: "urn:nowhere" } },
          { version: "v0.9", updateComponents: { surfaceId: "x", components: [] } },
          { hello: "world" },
          { version: "v0.9", updateDataModel: { surfaceId: "elsewhere", value: {} } },
        ];
        const broken = await t.call("/api/sessions/broken-ui", {
          method: "PUT",
          json: { ...stored, id: "broken-ui", meta: { ...stored.meta, toolCalls: calls } },
        });
        assert.equal(broken.status, 200);
        await broken.body?.cancel();
        await page.goto(`${ui.base}/chat/broken-ui`);
        const card = page.getByRole("region", { name: "UI: Sign up" }).getByRole("alert");
        await card.waitFor();
        const text = await card.innerText();
        assert.match(text, /This UI could not be shown/);
        assert.match(text, /Message 1 \(createSurface\)/);
        assert.match(text, /Message 2 \(updateComponents\)/);
        assert.match(text, /Message 3 is not an A2UI v0\.9 message/);
        assert.doesNotMatch(text, /Message 2 [^\n]*another result/, "x was created before it");
        assert.match(text, /Message 4 \(updateDataModel\): [^\n]*another result/);
        await card.scrollIntoViewIfNeeded();
        await screenshot(page, "a2ui-error");
      });

      await test.step("updateDataModel and deleteSurface within one result", async () => {
        const stored: Json = await t.service.sessions.get(sessionId);
        const calls = stored.meta.toolCalls as Record<string, Json>;
        const [callId] = Object.keys(calls);
        const catalogId = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
        const text = (surfaceId: string, value: unknown) => ({
          version: "v0.9",
          updateComponents: {
            surfaceId,
            components: [{ id: "root", component: "Text", text: value }],
          },
        });
        calls[callId].ui.messages = [
          { version: "v0.9", createSurface: { surfaceId: "one", catalogId } },
          text("one", "Gone"),
          { version: "v0.9", createSurface: { surfaceId: "two", catalogId } },
          text("two", { path: "/shown" }),
          { version: "v0.9", updateDataModel: { surfaceId: "two", value: { shown: "Replaced" } } },
          { version: "v0.9", updateDataModel: { surfaceId: "two", path: "/shown", value: "Kept" } },
          { version: "v0.9", deleteSurface: { surfaceId: "one" } },
        ];
        const put = await t.call("/api/sessions/delete-ui", {
          method: "PUT",
          json: { ...stored, id: "delete-ui", meta: { ...stored.meta, toolCalls: calls } },
        });
        assert.equal(put.status, 200);
        await put.body?.cancel();
        await page.goto(`${ui.base}/chat/delete-ui`);
        const region = page.getByRole("region", { name: "UI: Sign up" });
        await region.getByText("Kept").waitFor();
        assert.equal(await region.locator("a2ui-surface").count(), 1);
        assert.equal(await region.locator("a2ui-surface").getAttribute("data-surface-id"), "two");
        assert.equal(await region.getByRole("alert").count(), 0);
      });

      await test.step("a tool server's A2UI: its data, two surfaces in a chat, serverId", async () => {
        await page.goto(`${ui.base}/`);
        await page.locator("#pick-workspace").selectOption("t");
        for (let i = 1; i <= 2; i++) {
          await message.fill("call a2ui_form");
          await message.press("Enter");
          await page.locator(".turn-done").nth(i - 1).waitFor();
        }
        // A finished turn's cards may still be drawn again just after it ends: wait for both.
        const cards = page.getByRole("region", { name: "Tool call a2ui_form on demo" });
        await waitForCount(cards, 2);
        const surfaces = page.locator("a2ui-surface");
        await waitForCount(surfaces, 2);
        const ids = await surfaces.evaluateAll((list) =>
          list.map((element) => (element as Json).dataset.surfaceId)
        );
        assert.notEqual(ids[0], ids[1]);
        const first = cards.nth(0);
        // updateDataModel filled the name.
        assert.equal(await first.getByLabel("Name").inputValue(), "Ada");
        await cards.nth(1).getByLabel("Name").fill("Other");
        await first.getByLabel("Name").fill("Lin");
        const recorded = waitForEvent(t, (event) => event.type === "ui.action");
        await first.getByRole("button", { name: "Submit" }).click();
        const event = await recorded;
        assert.equal(event.data.surfaceId, ids[0], "the action of the surface pressed");
        assert.equal(event.data.serverId, "demo");
        assert.equal(event.data.tool, "a2ui_form");
        assert.deepEqual(event.data.context, { name: "Lin", subscribe: false });
        await page.locator(".turn-done").nth(2).waitFor();
        assert.match(await page.locator(".turn").nth(2).innerText(), /UI action "submit"/);
      });

      await test.step("the playground checks as one types: problems, repairs, rendering", async () => {
        await page.getByRole("link", { name: "UI playground" }).click();
        const input = page.getByLabel("Render-tool input (JSON)");
        const rendering = page.getByRole("region", { name: "Rendering" });
        const problems = page.getByRole("region", { name: "Problems" });
        // Prefilled with the render tool's example, drawn at once.
        await rendering.getByLabel("Email").fill("lin@example.com");
        assert.match(await input.inputValue(), /"components"/);
        await rendering.getByRole("button", { name: "Create account" }).click();
        const action = page.getByRole("status").filter({ hasText: "Last action" });
        assert.match(await action.innerText(), /"email": "lin@example\.com"/);
        // Typing changes the surface's data model, not the messages it was drawn from.
        await page.getByText("A2UI messages").click();
        const raw = page.locator("details.raw pre");
        assert.match(await raw.innerText(), /"updateDataModel"/);
        assert.doesNotMatch(await raw.innerText(), /lin@example\.com/);
        await page.getByText("A2UI messages").click();
        await input.fill(JSON.stringify({
          components: [{ id: "hello", component: "Text", text: "Hello", variant: "h9" }],
        }));
        await problems.getByText("invalid-enum").waitFor();
        assert.match(await problems.innerText(), /missing-root[\s\S]*repaired/);
        await rendering.getByText("Nothing to show.").waitFor();
        // Without repairs the missing root is a problem too.
        await page.getByLabel("Repair small mistakes").uncheck();
        await problems.locator("li.open", { hasText: "missing-root" }).waitFor();
        await page.getByLabel("Repair small mistakes").check();
        await input.fill("{ not json");
        await page.getByText(/Not valid JSON/).waitFor();
        await input.fill(JSON.stringify({
          title: "Greeting",
          components: [
            { id: "root", component: "Column", children: ["hello", "name", "echo"] },
            { id: "hello", component: "Text", text: "Hello", variant: "h3" },
            { id: "name", component: "TextField", label: "Name", value: { path: "/name" } },
            { id: "echo", component: "Text", text: { path: "/name" }, variant: "caption" },
          ],
        }));
        await page.getByRole("button", { name: "Format" }).click();
        assert.match(await input.inputValue(), /^\{\n {2}"title": "Greeting",/);
        await rendering.getByRole("heading", { name: "Hello" }).waitFor();
        await problems.getByText("No problems.").waitFor();
        // Two-way binding: what is typed lands in the data model, where the caption reads it.
        await rendering.getByLabel("Name").fill("Grace");
        await rendering.locator("em", { hasText: "Grace" }).waitFor();
        // Body text is markdown, drawn as the chat draws it: raw HTML stays text.
        await input.fill(JSON.stringify({
          components: [{
            id: "root",
            component: "Text",
            text: "Some **bold** text, [a link](https://example.com/) and <b>raw</b>",
          }],
        }));
        await rendering.locator("strong", { hasText: "bold" }).waitFor();
        const link = rendering.getByRole("link", { name: "a link" });
        assert.equal(await link.getAttribute("href"), "https://example.com/");
        assert.equal(await link.getAttribute("rel"), "noopener noreferrer");
        await rendering.getByText("<b>raw</b>").waitFor();
        assert.equal(await rendering.locator("b").count(), 0);
        // A component's accessibility label names its control, also without a visible label.
        await input.fill(JSON.stringify({
          components: [
            { id: "root", component: "Column", children: ["volume", "agree"] },
            {
              id: "volume",
              component: "Slider",
              value: 3,
              max: 10,
              accessibility: { label: "Volume", description: "How loud" },
            },
            {
              id: "agree",
              component: "CheckBox",
              label: "I agree",
              value: false,
              accessibility: { label: "Accept the terms" },
            },
          ],
        }));
        await rendering.getByRole("slider", { name: "Volume" }).waitFor();
        await rendering.getByRole("checkbox", { name: "Accept the terms" }).waitFor();
        assert.equal(
          await rendering.getByRole("slider").getAttribute("aria-description"),
          "How loud",
        );
        await screenshot(page, "playground");
      });

      await test.step("catalog previews draw each component of a catalog", async () => {
        await page.getByText("Components of a catalog").click();
        const button = page.getByRole("article", { name: "Component Button" });
        await button.getByRole("button").waitFor();
        await page.getByRole("article", { name: "Component TextField" }).getByRole("textbox")
          .waitFor();
        await page.getByRole("article", { name: "Component CheckBox" }).getByRole("checkbox")
          .waitFor();
        assert.equal(await page.locator(".component-preview").count(), 18);
        assert.equal(await page.locator(".component-preview .a2ui-error").count(), 0);
        await page.locator(".component-grid").scrollIntoViewIfNeeded();
        await screenshot(page, "catalog-previews");
        // A configured catalog's own components have no widget here: a placeholder names them.
        await page.getByLabel("Catalog", { exact: true }).selectOption("banners");
        await page.getByRole("article", { name: "Component Badge" })
          .getByText("Badge (no widget for it in this browser)").waitFor();
        assert.equal(await page.locator(".component-preview").count(), 2);
        // 50 components: their previews are asked for a few at a time, and all are drawn.
        let running = 0;
        let most = 0;
        const isPreview = (request: Json) =>
          request.method() === "POST" && request.url().includes("/api/ui/preview");
        const started = (request: Json) => {
          if (isPreview(request)) most = Math.max(most, ++running);
        };
        const ended = (request: Json) => {
          if (isPreview(request)) running--;
        };
        page.on("request", started);
        page.on("requestfinished", ended);
        page.on("requestfailed", ended);
        await page.getByLabel("Catalog", { exact: true }).selectOption("many");
        await page.getByRole("article", { name: "Component Chip49" })
          .getByText("Chip49 (no widget for it in this browser)").waitFor();
        await page.locator(".component-preview .loading").first().waitFor({ state: "detached" });
        page.off("request", started);
        page.off("requestfinished", ended);
        page.off("requestfailed", ended);
        assert.equal(await page.locator(".component-preview").count(), 50);
        assert.equal(await page.locator("lass-a2ui-placeholder").count(), 50);
        assert.ok(most >= 1 && most <= 4, `at most 4 previews at once, saw ${most}`);
      });

      await test.step("the A2UI renderer is not part of the chat page's JavaScript", async () => {
        const { manifest } = await buildUi({ ifStale: true });
        const chatPage = [manifest.entry, ...manifest.preload];
        const out = new URL("../../../build/ui/", import.meta.url);
        for (const name of chatPage) {
          const code = await Deno.readTextFile(new URL(name, out));
          assert.doesNotMatch(code, /"a2ui-surface"/, `${name} holds the A2UI renderer`);
        }
        const renderer = Object.keys(manifest.files).filter((name) =>
          name.endsWith(".js") &&
          Deno.readTextFileSync(new URL(name, out)).includes('"a2ui-surface"')
        );
        assert.equal(renderer.length, 1, "one chunk holds <a2ui-surface>");
        assert.ok(!chatPage.includes(renderer[0]));
      });

      assert.deepEqual(ui.problems, []);
      assert.deepEqual(warnings.filter((text) => text.includes("MarkdownDirective")), []);
    } finally {
      await ui.close();
    }
  },
});
