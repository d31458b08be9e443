/** The web UI's shell in Chromium: the token flow, the token page, lazy pages, themes, keyboard. */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, storedToken, withToken } from "../../_browser.ts";
import { chatConfig } from "../../_chat.ts";
import { type Json, TOKEN } from "../../_helpers.ts";

const STARTERS = ["please add 2 and 3", "ask user please"];

Deno.test({
  name: "web UI shell: token from the URL, token page, reload, lazy pages, themes, keyboard",
  ignore: skipBrowser,
  fn: async (test) => {
    const config = chatConfig({ workspace: { starterPrompts: STARTERS } });
    config.agents = [{ id: "helper", name: "Helper", protocol: "a2a", url: "http://127.0.0.1:9/" }];
    (config.workspaces as Json[]).push({ id: "agent", name: "With agent", agentId: "helper" });
    const ui = await startUi({ config });
    try {
      await test.step("the startup URL moves the token into sessionStorage and cleans the URL", async () => {
        const page = await ui.page();
        const response = await page.goto(withToken(ui.base));
        assert.equal(response?.status(), 200);
        await page.getByRole("button", { name: STARTERS[0] }).waitFor();
        assert.equal(page.url(), `${ui.base}/`);
        assert.equal(await storedToken(page), TOKEN);
        const csp = response!.headers()["content-security-policy"];
        assert.match(csp, /script-src 'self' 'nonce-[^']+'/);
        assert.doesNotMatch(csp, /unsafe-inline/);
        await screenshot(page, "chat-empty");

        // A reload of the cleaned URL has no token: the token page sends the stored one along,
        // and nothing is logged as failed.
        const statuses: number[] = [];
        const logged: string[] = [];
        page.on("response", (r) => {
          if (r.request().isNavigationRequest()) statuses.push(r.status());
        });
        page.on("console", (message) => {
          if (message.type() === "error") logged.push(message.text());
        });
        await page.reload();
        await page.getByRole("button", { name: STARTERS[0] }).waitFor();
        assert.deepEqual(statuses, [200, 200]);
        assert.deepEqual(logged, []);
        assert.equal(page.url(), `${ui.base}/`);
        assert.equal(await storedToken(page), TOKEN);
      });

      await test.step("without a token a page says to open the URL from the terminal", async () => {
        const page = await ui.page();
        const response = await page.goto(`${ui.base}/chat`);
        assert.equal(response?.status(), 200);
        assert.match(response!.headers()["content-type"], /^text\/html/);
        assert.match(response!.headers()["content-security-policy"], /script-src 'sha256-/);
        await page.getByRole("heading", { name: "Open Lass from the terminal" }).waitFor();
        assert.match(await page.textContent("body") ?? "", /printed in the terminal/);
        assert.equal(page.url(), `${ui.base}/chat`, "no token stored: it stays on the page");
        await screenshot(page, "no-token");
      });

      await test.step("a wrong or stale token gets the page once, never a reload loop", async () => {
        const page = await ui.page();
        const navigations: string[] = [];
        page.on("framenavigated", (frame) => navigations.push(frame.url()));
        await page.goto(`${ui.base}/?token=wrong-token`);
        await page.getByText("not the one Lass is using now").waitFor();
        assert.equal(await storedToken(page), null);
        // A token kept from an earlier start: one retry with it, then the page.
        await page.evaluate("sessionStorage.setItem('lass.token', 'old-token')");
        await page.goto(`${ui.base}/chat`);
        await page.getByText("not the one Lass is using now").waitFor();
        await page.waitForTimeout(300);
        assert.equal(new URL(page.url()).searchParams.get("token"), "old-token");
        assert.equal(await storedToken(page), null);
        assert.ok(navigations.length <= 3, navigations.join(", "));
      });

      await test.step("other pages load their chunk on demand through the import map", async () => {
        const page = await ui.page();
        const chunks: string[] = [];
        page.on("response", (r) => {
          if (/\/assets\/page-/.test(r.url())) chunks.push(`${r.status()} ${r.url()}`);
        });
        await page.goto(withToken(ui.base, "/settings/models"));
        await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
        assert.equal(page.url(), `${ui.base}/settings/models`);
        assert.equal(chunks.length, 1, "only the settings page's own chunk");
        assert.match(chunks[0], /^200 .*\?token=/);
        await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Chat" })
          .click();
        await page.getByRole("button", { name: STARTERS[0] }).waitFor();
        assert.equal(page.url(), `${ui.base}/`);
      });

      await test.step("dark theme from the system setting", async () => {
        const background = "getComputedStyle(document.body).backgroundColor";
        const light = await ui.page({ colorScheme: "light" });
        await light.goto(withToken(ui.base));
        await light.getByRole("button", { name: STARTERS[0] }).waitFor();
        const dark = await ui.page({ colorScheme: "dark" });
        await dark.goto(withToken(ui.base));
        await dark.getByRole("button", { name: STARTERS[0] }).waitFor();
        assert.equal(await light.evaluate(background), "rgb(255, 255, 255)");
        assert.equal(await dark.evaluate(background), "rgb(21, 23, 27)");
        await screenshot(dark, "chat-empty-dark");
      });

      await test.step("keyboard: a skip link to the message box; every control has a name", async () => {
        const page = await ui.page();
        await page.goto(withToken(ui.base));
        await page.getByRole("button", { name: STARTERS[0] }).waitFor();
        await page.keyboard.press("Tab");
        assert.equal(
          await page.evaluate("document.activeElement.textContent.trim()"),
          "Skip to the message box",
        );
        await page.keyboard.press("Enter");
        assert.equal(await page.evaluate("document.activeElement.id"), "composer");
        assert.equal(page.url(), `${ui.base}/`);
        const unnamed = await page.evaluate(`[...document.querySelectorAll(
          "button, select, input, textarea, a[href]")].filter((el) => {
            const name = el.getAttribute("aria-label") || el.title ||
              [...(el.labels ?? [])].map((l) => l.textContent).join("") || el.textContent;
            return !name || !name.trim();
          }).map((el) => el.outerHTML.slice(0, 120))`);
        assert.deepEqual(unnamed, []);
        // The pickers and the message box are reachable by their labels.
        await page.getByLabel("Workspace", { exact: true }).waitFor();
        await page.getByLabel("Model", { exact: true }).waitFor();
        await page.getByLabel("Message", { exact: true }).fill("hello");
        await page.keyboard.press("Enter");
        await page.locator(".turn-done").waitFor();
      });

      await test.step("a workspace with a remote agent shows the agent's name", async () => {
        const page = await ui.page();
        await page.goto(withToken(ui.base));
        await page.getByLabel("Workspace", { exact: true }).selectOption("agent");
        await page.locator(".agent-name").waitFor();
        assert.equal(await page.locator(".agent-name").innerText(), "Agent: Helper");
        const model = page.getByLabel("Model", { exact: true });
        assert.equal(await model.locator("option").first().innerText(), "Agent: Helper");
        await page.getByRole("heading", { name: "With agent" }).waitFor();
      });

      await test.step("a dropped event stream reconnects with ?since= the last seq", async () => {
        const page = await ui.page();
        const requests: string[] = [];
        await page.route("**/api/events*", async (route) => {
          requests.push(route.request().url());
          if (requests.length > 1) return await route.continue();
          // The first stream delivers one event and ends, as a dropped stream does.
          const event = { seq: 41, time: new Date().toISOString(), type: "test.event", data: {} };
          await route.fulfill({
            status: 200,
            contentType: "application/x-ndjson",
            body: JSON.stringify(event) + "\n",
          });
        });
        await page.goto(withToken(ui.base));
        const deadline = Date.now() + 10_000;
        while (requests.length < 2 && Date.now() < deadline) await page.waitForTimeout(50);
        await page.locator(".live.on").waitFor();
        assert.ok(requests.length >= 2, requests.join(", "));
        assert.equal(new URL(requests[0]).search, "");
        assert.equal(new URL(requests[1]).searchParams.get("since"), "41");
      });

      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
