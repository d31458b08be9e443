/// <reference lib="dom" />
/**
 * The sign-in debugger in Chromium, in one page load: "Sign in step by step" on an OAuth server
 * lists the steps with their status, the user signs in in a new tab, the steps fill in up to the
 * first authorized MCP request, a step opens its exchanges (secrets masked), and the stepper fits
 * at 1400×900 and at 390×844.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { DEMO_LLM } from "../../_chat.ts";
import { startOAuthFixture } from "../../fixtures/oauth_mcp_server.ts";

/** Whether anything makes the document wider than the window. */
function widthProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > innerWidth) problems.push(`the document is ${root.scrollWidth} px wide`);
    for (const element of document.querySelectorAll(".sign-in-debugger *")) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && (box.left < -1 || box.right > innerWidth + 1)) {
        problems.push(`${element.tagName}.${element.className} spans ${box.left}..${box.right}`);
      }
    }
    return problems.slice(0, 5);
  });
}

Deno.test({
  name: "web UI sign-in debugger: step by step, sign in in a new tab, exchanges, desktop and phone",
  ignore: skipBrowser,
  fn: async (test) => {
    const fixture = await startOAuthFixture();
    const ui = await startUi({
      config: {
        llms: [DEMO_LLM],
        mcpServers: [{ id: "secure", name: "Secure", transport: "http", url: fixture.url }],
        workspaces: [{ id: "w", name: "W", llmId: "demo", mcpServerIds: [] }],
        activeWorkspaceId: "w",
      },
    });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    const debuggerBox = page.locator(".sign-in-debugger");
    const steps = page.getByRole("list", { name: "Sign-in steps" });
    const stepButton = (name: string) => steps.getByRole("button", { name: new RegExp(name) });
    try {
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.goto(withToken(ui.base, "/inspector/secure"));

      await test.step("Sign in step by step lists the steps, the browser step waiting", async () => {
        await debuggerBox.getByText("Sign-in (OAuth)").click();
        await debuggerBox.getByRole("button", { name: "Sign in step by step" }).click();
        await stepButton("^ok 1\\. Protected-resource metadata").waitFor();
        await stepButton("^ok 2\\. Authorization server metadata").waitFor();
        await stepButton("^ok 3\\. Client registration").waitFor();
        await stepButton("^pending 4\\. Authorization request").waitFor();
        assert.equal(await steps.getByRole("listitem").count(), 8);
        const detail = page.getByRole("region", { name: "Step: Authorization request (PKCE)" });
        await detail.getByText("Expected:").waitFor();
        assert.match(await detail.innerText(), /code_challenge_method=S256/);
      });

      await test.step("the user signs in in a new tab; the steps go on to the first authorized request", async () => {
        const [popup] = await Promise.all([
          page.waitForEvent("popup"),
          page.getByRole("link", { name: "Open the sign-in page" }).click(),
        ]);
        await popup.getByText("Lass is signed in to Secure.").waitFor();
        await popup.close();
        await stepButton("^ok 7\\. First authorized MCP request").waitFor();
        await stepButton("^ok 6\\. Token request").waitFor();
        await stepButton("^skipped 8\\. Refresh").waitFor();
      });

      await test.step("a step opens its exchanges, secrets masked", async () => {
        await stepButton("6\\. Token request").click();
        const detail = page.getByRole("region", { name: "Step: Token request" });
        await detail.locator(".exchange summary").first().click();
        const text = await detail.innerText();
        assert.match(text, /Response 200/);
        assert.match(text, /grant_type=authorization_code/);
        assert.match(text, /code_verifier=%5Bmasked/);
        await page.getByRole("button", { name: "Next step" }).click();
        await page.getByRole("region", { name: "Step: First authorized MCP request" }).waitFor();
        const stored = JSON.parse(
          await readFile(join(ui.t.dir, "data", "oauth", "secure.json"), "utf8"),
        );
        const all = await page.locator("body").innerText();
        for (const secret of [stored.tokens.access_token, stored.tokens.refresh_token]) {
          assert.ok(!all.includes(secret), "no token on the page");
        }
        assert.deepEqual(await widthProblems(page), []);
        await screenshot(page, "sign-in-debugger-desktop");
      });

      await test.step("at 390×844 the steps and an exchange fit the screen", async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        await stepButton("3\\. Client registration").click();
        const detail = page.getByRole("region", { name: "Step: Client registration" });
        await detail.locator(".exchange summary").first().click();
        await detail.getByText("Response 201").waitFor();
        assert.deepEqual(await widthProblems(page), []);
        await screenshot(page, "sign-in-debugger-phone");
      });
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
      await fixture.close();
    }
  },
});
