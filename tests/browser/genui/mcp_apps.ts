/**
 * MCP Apps and MCP-UI in Chromium: the demo server's View in the sandbox port's double iframe
 * (tool input and result in, a tool call out), the legacy card and its action, and a probing View
 * that Lass and the browser refuse (CSP, 403, no token), then teardown.
 */
import assert from "node:assert/strict";
import type { FrameLocator, Page, Route } from "playwright-core";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chatConfig, DEMO_SERVER } from "../../_chat.ts";
import type { LassEvent } from "../../../wire/events.ts";
import { type Json, TOKEN } from "../../_helpers.ts";
import { FLOOD, PROBE_URI, SILENT_URI } from "../../fixtures/mcp_apps_probe_server.ts";

/** `MAX_QUEUED_UI_EVENTS` of `islands/genui/mcp_api.ts` (the browser code is not type-checked here). */
const MAX_QUEUED_UI_EVENTS = 200;

const PROBE_SERVER = {
  id: "probe",
  name: "Probe",
  transport: "stdio",
  command: Deno.execPath(),
  args: ["run", "-A", new URL("../../fixtures/mcp_apps_probe_server.ts", import.meta.url).pathname],
};

/** A legacy MCP-UI page served by URL: a notify and an intent, each with a messageId. */
const EXTERNAL_PAGE = `<!doctype html><title>External card</title><p id="reply">waiting</p>
<script>
  addEventListener("message", (event) => {
    if (event.data && event.data.type === "ui-message-response") {
      document.getElementById("reply").textContent = "replied " + JSON.stringify(event.data.payload.response);
    }
  });
  parent.postMessage({ type: "notify", payload: { message: "hello from a URL" }, messageId: "n1" }, "*");
  parent.postMessage({ type: "intent", payload: { intent: "book", params: { when: "now" } } }, "*");
</script>`;

/** The View inside the sandbox proxy inside the card `selector`. */
function view(page: Page, selector: string): FrameLocator {
  return page.frameLocator(`${selector} iframe.mcp-frame`).frameLocator("iframe");
}

/** Sends a message once the chat is idle (a message typed while a turn streams is not sent). */
async function ask(page: Page, text: string): Promise<void> {
  await page.getByRole("button", { name: "Send" }).waitFor();
  await page.getByLabel("Message", { exact: true }).fill(text);
  await page.keyboard.press("Enter");
}

Deno.test({
  name: "web UI MCP Apps: sandboxed View with bridge, MCP-UI actions, refused probes, teardown",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({
      config: chatConfig({
        servers: [DEMO_SERVER, PROBE_SERVER],
        workspace: { generativeUi: false },
      }),
    });
    const { t } = ui;
    const page = await ui.page();
    // A page on another origin for the URL-list resource: it sends legacy actions to its host.
    const site = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () =>
        new Response(EXTERNAL_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
    );
    const external = `http://127.0.0.1:${site.addr.port}`;
    // Every event, kept from the start; a step then finds the one it expects (or times out).
    const events: LassEvent[] = [];
    const stopEvents = t.service.events.subscribe((event) => void events.push(event));
    const seen = async (test: (event: LassEvent) => boolean, ms = 20_000) => {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        const found = events.find(test);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error("the expected event did not come");
    };
    const rpc = (method: string, direction: string) =>
      seen((e) =>
        e.type === "ui.rpc" && e.data.method === method && e.data.direction === direction
      );
    const action = (name: string) => seen((e) => e.type === "ui.action" && e.data.name === name);
    // A second page, dark, whose silent View must wait out the initialize timeout: started first,
    // checked last, so the wait overlaps the other steps.
    const dark = await ui.page({ colorScheme: "dark" });
    try {
      await test.step("a View that never initializes is started in a dark page", async () => {
        await dark.goto(withToken(ui.base));
        await ask(dark, "silent app");
        await dark.locator(".mcp-app[data-status=loading] iframe.mcp-frame").waitFor();
      });

      await test.step("the demo MCP App renders in the card with its tool input and result", async () => {
        await page.goto(withToken(ui.base));
        await ask(page, 'show dashboard "Ops board"');
        const card = page.getByRole("region", { name: "Tool call show_dashboard on demo" });
        await card.locator(".mcp-app[data-status=ready]").waitFor();
        const app = view(page, ".mcp-app");
        await app.getByRole("heading", { name: "Ops board" }).waitFor();
        await app.getByText(/Refresh #0 at/).waitFor();
        assert.match(await app.locator("#metrics").innerText(), /Requests per minute/);
        const init = await rpc("ui/initialize", "from-app");
        const inputEvent = await rpc("ui/notifications/tool-input", "to-app");
        await rpc("ui/notifications/tool-result", "to-app");
        assert.equal(init.data.serverId, "demo");
        assert.equal(init.data.resourceUri, "ui://lass-demo/dashboard.html");
        assert.equal(inputEvent.data.kind, "notification");
        // The bridge log lists what crossed, collapsed until asked.
        const log = card.locator("details.mcp-log");
        assert.equal(await log.getAttribute("open"), null);
        await log.locator("summary").click();
        const methods = await log.locator("li").evaluateAll((items) =>
          items.map((item) => (item as Json).dataset.method)
        );
        for (
          const method of [
            "ui/notifications/sandbox-proxy-ready",
            "ui/notifications/sandbox-resource-ready",
            "ui/initialize",
            "ui/notifications/tool-input",
            "ui/notifications/tool-result",
          ]
        ) assert.ok(methods.includes(method), `${method} in ${methods.join(", ")}`);
      });

      await test.step("a button in the View calls an app-only tool through Lass", async () => {
        await view(page, ".mcp-app").getByRole("button", { name: "Refresh" }).click();
        await view(page, ".mcp-app").getByText(/Refresh #1 at/).waitFor();
        const event = await rpc("tools/call", "from-app");
        assert.equal(event.data.tool, "dashboard_refresh");
        assert.equal(event.data.serverId, "demo");
        assert.equal(event.data.kind, "request");
        await page.locator(".mcp-app").evaluate((element) => element.scrollIntoView());
        await screenshot(page, "mcp-app");
      });

      await test.step("the sandbox is another origin, framed without the token", async () => {
        const outer = page.locator(".mcp-app iframe.mcp-frame");
        const src = (await outer.getAttribute("src"))!;
        assert.ok(src.startsWith(`${ui.sandboxBase}/?csp=`), src);
        assert.ok(!src.includes(TOKEN));
        assert.equal(
          await outer.getAttribute("sandbox"),
          "allow-scripts allow-same-origin allow-forms",
        );
        assert.notEqual(new URL(ui.sandboxBase).origin, new URL(ui.base).origin);
        const proxy = page.frames().find((frame) => frame.url().startsWith(ui.sandboxBase))!;
        assert.equal(await proxy.evaluate(() => location.origin), ui.sandboxBase);
        assert.ok(!(await proxy.content()).includes(TOKEN));
        const inner = proxy.childFrames()[0];
        assert.equal(await inner.evaluate(() => location.origin), ui.sandboxBase);
        assert.equal(await inner.evaluate(() => sessionStorage.length), 0);
        // The frame took the height the View reported (ui/notifications/size-changed).
        const height = await outer.evaluate((frame) => (frame as Json).style.height);
        const reported = await inner.evaluate("document.documentElement.scrollHeight");
        assert.equal(height, `${reported}px`);
        // The page may frame the sandbox origin only.
        const shell = await fetch(withToken(ui.base));
        await shell.body?.cancel();
        assert.match(
          shell.headers.get("content-security-policy")!,
          new RegExp(`frame-src ${ui.sandboxBase};`),
        );
      });

      await test.step("the sandbox port serves only its page: 404 for the API", async () => {
        const health = await fetch(`${ui.sandboxBase}/api/health`);
        assert.equal(health.status, 404);
        assert.equal((await health.json()).error.code, "not-found");
        const bootstrap = await fetch(`${ui.sandboxBase}/api/bootstrap?token=${TOKEN}`);
        assert.equal(bootstrap.status, 404);
        await bootstrap.body?.cancel();
      });

      await test.step("an MCP-UI resource renders and its tool action is answered", async () => {
        await ask(page, "legacy ui card");
        const card = page.getByRole("region", { name: "Tool call legacy_ui_card on demo" });
        await card.locator(".mcp-ui iframe.mcp-frame").waitFor();
        const frame = view(page, ".mcp-ui");
        await frame.getByRole("button", { name: "Ask the host to call echo" }).click();
        await frame.getByText(/Host replied: .*Hello from the legacy card/).waitFor();
        const event = await action("tool");
        assert.equal(event.data.serverId, "demo");
        assert.equal((event.data.context as Json).toolName, "echo");
        assert.match(String(event.data.messageId), /^echo-/);
        const inner = page.frames().find((f) =>
          f.parentFrame()?.url().startsWith(ui.sandboxBase) &&
          f.url() === "about:srcdoc"
        );
        assert.ok(inner, "the legacy HTML is a srcdoc frame inside the proxy");
        assert.equal(await inner.evaluate(() => location.origin), "null");
        await page.locator(".mcp-ui").evaluate((element) => element.scrollIntoView());
        await screenshot(page, "mcp-ui");
        assert.deepEqual(ui.problems, []);
      });

      await test.step("a URL list is framed inside the sandbox; notify and intent are shown", async () => {
        const url = `${external}/card`;
        await ask(page, `url card ${JSON.stringify({ url })}`);
        const card = page.getByRole("region", { name: "Tool call url_card on probe" });
        const notices = card.getByRole("status", { name: "Messages from the UI" });
        await notices.getByText("hello from a URL").waitFor();
        await notices.getByText('Intent "book": {"when":"now"}').waitFor();
        await view(page, ".mcp-ui[aria-label='MCP-UI ui://probe/url']")
          .getByText('replied {"received":true}').waitFor();
        const frame = page.frames().find((f) => f.url() === url)!;
        assert.equal(frame.parentFrame()!.url().startsWith(ui.sandboxBase), true);
        assert.equal((await action("notify")).data.serverId, "probe");

        await ask(page, "remote dom card");
        const remote = page.getByRole("region", { name: "Tool call remote_dom_card on probe" });
        await remote.getByText(/Remote-DOM resources .* are not supported by Lass/).waitFor();
        assert.equal(await remote.locator("iframe").count(), 0);
      });

      await test.step("a probing View is refused by CSP and by Lass (403), and cannot reach up", async () => {
        // What Lass answers the View's request, sent once more as the View sent it (the browser
        // itself never shows the View the answer: there is no CORS header).
        const refused: { status: number; origin?: string }[] = [];
        await page.route("**/api/bootstrap", async (route) => {
          if (route.request().frame() !== page.mainFrame()) {
            const response = await route.fetch();
            refused.push({ status: response.status(), origin: route.request().headers().origin });
          }
          await route.continue();
        });
        await page.getByRole("button", { name: "New chat" }).click();
        await page.waitForURL(`${ui.base}/`);
        const target = `${ui.base}/api/bootstrap`;
        const blocked = `http://localhost:${new URL(ui.base).port}/api/bootstrap`;
        const link = `${ui.base}/api/health`;
        await ask(page, `probe app ${JSON.stringify({ target, blocked, link })}`);
        const probe = view(page, ".mcp-app");
        await probe.getByText(`"target":"${target}"`, { exact: false }).waitFor();
        await probe.locator("#result", { hasText: "probe ready" }).waitFor();
        await probe.locator("#fetch", { hasText: "refused TypeError" }).waitFor();
        await probe.locator("#blocked", { hasText: "refused TypeError" }).waitFor();
        await probe.locator("#csp", { hasText: "blocked connect-src" }).waitFor();
        assert.match(await probe.locator("#top").innerText(), /refused SecurityError/);
        assert.match(await probe.locator("#title").innerText(), /in Lass \(light\)/);
        assert.deepEqual(refused, [{ status: 403, origin: ui.sandboxBase }]);
        // Even with the token, a request from the sandbox origin is refused.
        const direct = await fetch(target, {
          headers: { origin: ui.sandboxBase, "x-service-token": TOKEN },
        });
        assert.equal(direct.status, 403);
        assert.equal((await direct.json()).error.code, "forbidden-origin");

        // A model-only tool is not the View's to call.
        await probe.getByRole("button", { name: "Call hidden tool" }).click();
        await probe.locator("#hidden", { hasText: /error .*not visible to apps/ }).waitFor();
      });

      await test.step("links open only after the person agrees", async () => {
        const probe = view(page, ".mcp-app");
        const consent = page.getByRole("group", { name: "Open a link?" });
        await probe.getByRole("button", { name: "Open link" }).click();
        await consent.getByText(`${ui.base}/api/health`).waitFor();
        await consent.getByRole("button", { name: "Cancel" }).click();
        await probe.locator("#link", { hasText: 'answered {"isError":true}' }).waitFor();
        await probe.getByRole("button", { name: "Open link" }).click();
        const [opened] = await Promise.all([
          page.context().waitForEvent("page"),
          consent.getByRole("button", { name: "Open link" }).click(),
        ]);
        await opened.waitForLoadState();
        assert.equal(opened.url(), `${ui.base}/api/health`);
        await opened.close();
        await probe.locator("#link", { hasText: "answered {}" }).waitFor();
      });

      await test.step("model context and a message from the View continue the chat", async () => {
        const probe = view(page, ".mcp-app");
        await probe.getByRole("button", { name: "Set context" }).click();
        await probe.locator("#context", { hasText: "answered {}" }).waitFor();
        await probe.getByRole("button", { name: "Send message" }).click();
        await probe.locator("#message", { hasText: "answered {}" }).waitFor();
        await page.locator(".msg-user", { hasText: "hello from the probe" }).waitFor();
        await page.locator(".turn-done").nth(1).waitFor();
        await page.waitForURL(/\/chat\/[\w-]+$/);
        const sessionId = decodeURIComponent(page.url().split("/chat/")[1]);
        const stored = await t.service.sessions.get(sessionId);
        const users = stored.messages.filter((m: Json) => m.role === "user");
        assert.equal(users.length, 2);
        const parts = users[1].content as Json[];
        assert.match(parts[0].text, /<context from="probe">\nthe probe saw 42\n<\/context>/);
        assert.equal(parts[1].text, "hello from the probe");
      });

      await test.step("the View follows the theme through host-context-changed", async () => {
        const probe = view(page, ".mcp-app");
        await page.emulateMedia({ colorScheme: "dark" });
        await probe.locator("#title", { hasText: "in Lass (dark)" }).waitFor();
        const change = await seen((e) =>
          e.type === "ui.rpc" && e.data.method === "ui/notifications/host-context-changed" &&
          e.data.resourceUri === PROBE_URI
        );
        assert.equal(change.data.direction, "to-app");
        await page.emulateMedia({ colorScheme: "light" });
        await probe.locator("#title", { hasText: "in Lass (light)" }).waitFor();
      });

      await test.step("a View cannot grow the event queue without bound while the API hangs", async () => {
        const probe = view(page, ".mcp-app");
        // The page sends its UI events one request at a time: holding the one in flight holds
        // them all, and the flood piles up in the page's queue. Once it is done, the rest go
        // out unheld, and Lass's own log says how many the queue kept.
        let release!: () => void;
        const gate = new Promise<void>((resolve) => release = resolve);
        let held!: () => void;
        const holding = new Promise<void>((resolve) => held = resolve);
        const hold = async (route: Route) => {
          held();
          await gate;
          await route.continue();
        };
        await page.route("**/api/events/ui", hold);
        const from = events.length;
        await probe.getByRole("button", { name: "Flood" }).click();
        await holding;
        await probe.locator("#flooded", { hasText: "flooded" }).waitFor();
        await page.unroute("**/api/events/ui", hold);
        release();
        // The ping's answer is the last event the flood made: once Lass has it, the queue is empty.
        await seen((e) =>
          e.type === "ui.rpc" && e.data.method === "ping" && e.data.direction === "to-app"
        );
        const logged = events.slice(from).filter((e) =>
          e.type === "ui.rpc" && e.data.method === "notifications/message" &&
          e.data.resourceUri === PROBE_URI
        ).length;
        assert.ok(logged > 0, "some log notifications were recorded");
        assert.ok(logged <= MAX_QUEUED_UI_EVENTS + 1, `${logged} of ${FLOOD} were sent`);
      });

      await test.step("the silent View gets a clear note and nothing before initialized", async () => {
        const card = dark.locator(".mcp-app[data-status=silent]");
        await card.getByRole("alert").getByText(/has not connected: it sent no ui\/initialize/)
          .waitFor({ timeout: 30_000 });
        // The View is still shown, as it is.
        await view(dark, ".mcp-app").getByText("I never connect.").waitFor();
        // A theme change is not sent to a View that has not initialized.
        await dark.emulateMedia({ colorScheme: "light" });
        await dark.emulateMedia({ colorScheme: "dark" });
        await new Promise((resolve) =>
          setTimeout(resolve, 300)
        );
        const sent = events.filter((e) =>
          e.type === "ui.rpc" && e.data.resourceUri === SILENT_URI && e.data.direction === "to-app"
        ).map((e) => e.data.method);
        assert.deepEqual(sent, ["ui/notifications/sandbox-resource-ready"]);
      });

      await test.step("a View the server cannot read gives an error card", async () => {
        await ask(dark, "broken app");
        const card = dark.getByRole("region", { name: "Tool call broken_app on probe" });
        await card.locator(".mcp-app[data-status=error]").waitFor();
        assert.match(
          await card.getByRole("alert").innerText(),
          /The app could not be shown: .*ui:\/\/probe\/missing\.html/,
        );
        assert.equal(await card.locator("iframe").count(), 0);
      });

      await test.step("in the dark theme the demo View takes the page's dark colours", async () => {
        await ask(dark, 'show dashboard "Night board"');
        const card = dark.getByRole("region", { name: "Tool call show_dashboard on demo" });
        await card.locator(".mcp-app[data-status=ready]").waitFor();
        const app = dark.frameLocator(
          ".mcp-app[aria-label='MCP App ui://lass-demo/dashboard.html'] iframe.mcp-frame",
        ).frameLocator("iframe");
        await app.getByRole("heading", { name: "Night board" }).waitFor();
        const pageCard = await dark.evaluate(`(() => {
          const probe = document.createElement("div");
          probe.style.background = "var(--bg-card)";
          document.body.append(probe);
          const color = getComputedStyle(probe).backgroundColor;
          probe.remove();
          return color;
        })()`);
        const viewBackground = await app.locator("body").evaluate((body: Json) =>
          body.ownerDocument.defaultView.getComputedStyle(body).backgroundColor
        );
        assert.notEqual(pageCard, "rgb(255, 255, 255)", "the dark page has a dark card colour");
        assert.equal(viewBackground, pageCard);
        await card.evaluate((element) => element.scrollIntoView());
        await screenshot(dark, "mcp-app-dark");
      });

      await test.step("leaving the chat tears the View down", async () => {
        await page.getByRole("button", { name: "New chat" }).click();
        const event = await seen((e) =>
          e.type === "ui.rpc" && e.data.method === "ui/resource-teardown" &&
          e.data.direction === "to-app" && e.data.resourceUri === PROBE_URI
        );
        assert.equal(event.data.serverId, "probe");
        assert.equal(event.data.kind, "request");
        // The probe's refusals are the only problems the browser reported.
        const unexpected = ui.problems.filter((problem) =>
          !/Content Security Policy|CORS policy|Failed to load resource|Failed to fetch/.test(
            problem,
          )
        );
        assert.deepEqual(unexpected, []);
      });

      await test.step("switching between chats with Views leaves no listeners behind", async () => {
        const cdp = await page.context().newCDPSession(page);
        const messageListeners = async () => {
          const { result } = await cdp.send("Runtime.evaluate", { expression: "window" });
          const { listeners } = await cdp.send("DOMDebugger.getEventListeners", {
            objectId: result.objectId!,
          });
          return listeners.filter((listener) => listener.type === "message").length;
        };
        const settled = async (expected: number) => {
          // A View being torn down keeps its listener until it answers or a second passes.
          const deadline = Date.now() + 5_000;
          let count = await messageListeners();
          while (count !== expected && Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            count = await messageListeners();
          }
          return count;
        };
        const chats = page.locator("nav.sessions");
        await page.locator(".mcp-app").waitFor({ state: "detached" });
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const idle = await messageListeners();
        for (let round = 0; round < 3; round++) {
          await chats.getByText(/^probe app/).click();
          await view(page, ".mcp-app").locator("#result", { hasText: "probe ready" }).waitFor();
          await chats.getByText(/^show dashboard/).click();
          await page.locator(".mcp-app[data-status=ready]").waitFor();
          await page.locator(".mcp-ui iframe.mcp-frame").first().waitFor();
          // One View and two MCP-UI resources on screen: one listener each, once the Views of the
          // chat left have been torn down.
          assert.equal(await settled(idle + 3), idle + 3);
        }
        await page.getByRole("button", { name: "New chat" }).click();
        await page.locator(".mcp-app").waitFor({ state: "detached" });
        assert.equal(await settled(idle), idle);
        await cdp.detach();
      });
    } finally {
      stopEvents();
      await ui.close();
      await site.shutdown();
    }
  },
});
