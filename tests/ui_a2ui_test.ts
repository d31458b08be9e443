/** A2UI in Chromium: surfaces in the chat (binding, actions, reload), the UI playground, catalog previews. */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, withToken } from "./_browser.ts";
import { chatConfig } from "./_chat.ts";
import { bannerCatalog } from "./_genui.ts";
import { type Json, waitForEvent } from "./_helpers.ts";
import { buildUi } from "../scripts/build_ui.ts";

/** The demo model answers a request for a form with the render tool's sign-up form. */
const FORM_PROMPT = "show me a sign-up form";

Deno.test({
  name: "web UI A2UI: chat surfaces bind and send actions, render again on reload; playground",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({
      config: {
        ...chatConfig({
          servers: [],
          workspace: { llmId: "demo", generativeUi: { theme: { primaryColor: "#aa3300" } } },
        }),
        catalogs: [{ id: "banners", catalog: bannerCatalog() }],
      },
    });
    const page = await ui.page();
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
      });

      await test.step("typing updates the model; the button sends a ui.action and a new turn", async () => {
        const surface = page.getByRole("region", { name: "UI: Sign up" });
        await surface.getByLabel("Email").fill("ada@example.com");
        const recorded = waitForEvent(t, (event) => event.type === "ui.action");
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
        await card.scrollIntoViewIfNeeded();
        await screenshot(page, "a2ui-error");
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
      });

      await test.step("the A2UI renderer is not part of the chat page's JavaScript", async () => {
        const { manifest } = await buildUi({ ifStale: true });
        const chatPage = [manifest.entry, ...manifest.preload];
        const out = new URL("../build/ui/", import.meta.url);
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
    } finally {
      await ui.close();
    }
  },
});
