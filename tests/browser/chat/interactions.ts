/** Interactions in the chat page (Chromium): approvals, elicitation forms, sampling, the sidebar list. */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { DEMO_LLM, DEMO_SERVER } from "../../_chat.ts";

const CONFIG = {
  llms: [DEMO_LLM],
  mcpServers: [DEMO_SERVER],
  workspaces: [
    { id: "w", name: "Open", llmId: "demo", mcpServerIds: ["demo"] },
    { id: "strict", name: "Strict", llmId: "demo", mcpServerIds: ["demo"], requireApproval: true },
  ],
  activeWorkspaceId: "w",
};

Deno.test({
  name: "web UI interactions: approve in the chat, elicitation form, sampling, requests elsewhere",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({ config: CONFIG });
    const page = await ui.page();
    const { t } = ui;
    const message = page.getByLabel("Message", { exact: true });
    try {
      await page.goto(withToken(ui.base));
      await message.waitFor();

      await test.step("an approval shows in the tool card; approving runs the call", async () => {
        await page.getByLabel("Workspace", { exact: true }).selectOption("strict");
        await message.fill("please add 2 and 3");
        await message.press("Enter");
        const card = page.getByRole("region", { name: "Tool call add on demo" });
        const approval = card.getByRole("region", { name: "Run add (demo)?" });
        await approval.waitFor();
        assert.match(await card.locator(".tool-io").innerText(), /"a": 2/);
        await card.getByText("waiting for you").waitFor();
        await page.getByRole("status").getByText("1 waiting").waitFor();
        assert.equal(await page.getByLabel("Workspace", { exact: true }).isDisabled(), true);
        await screenshot(page, "chat-approval");
        await approval.getByRole("button", { name: "Approve", exact: true }).click();
        await card.getByText("done").waitFor();
        assert.match(await card.innerText(), /Result\s+5/);
        await approval.waitFor({ state: "detached" });
        await page.locator(".turn-done").waitFor();
      });

      await test.step("an elicitation is a form from its schema; the answer reaches the tool", async () => {
        await page.getByRole("button", { name: "New chat" }).click();
        await page.getByLabel("Workspace", { exact: true }).selectOption("w");
        await message.fill("ask user please");
        await message.press("Enter");
        const form = page.getByRole("region", { name: "Input requested (demo)" });
        await form.waitFor();
        const name = form.getByLabel("Name");
        assert.equal(await name.inputValue(), "Ada", "defaults from the schema");
        assert.equal(await name.getAttribute("required"), "");
        await name.fill("Grace");
        await form.getByLabel("Favourite colour").selectOption("green");
        await form.getByLabel("Send me updates").check();
        await screenshot(page, "chat-elicitation");
        await form.getByRole("button", { name: "Submit" }).click();
        const card = page.getByRole("region", { name: "Tool call ask_user on demo" });
        await card.getByText("done").waitFor();
        assert.match(
          await card.locator(".tool-io").innerText(),
          /The user answered: \{"name":"Grace","color":"green","subscribe":true\}/,
        );
        await page.locator(".turn-done").waitFor();
      });

      await test.step("a sampling request is allowed from the chat", async () => {
        await message.fill("summarize with model 'Lass runs tools for models on this machine'");
        await message.press("Enter");
        const request = page.getByRole("region", { name: "Model completion requested (demo)" });
        await request.waitFor();
        assert.match(await request.innerText(), /Summarize in at most/);
        await request.getByRole("button", { name: "Allow", exact: true }).click();
        const card = page.getByRole("region", { name: "Tool call summarize_with_model on demo" });
        await card.getByText("done").waitFor();
        await page.locator(".turn-done").nth(1).waitFor();
      });

      await test.step("a sampling request is answered by hand with typed text", async () => {
        await message.fill("summarize with model 'Typed replies go back to the server'");
        await message.press("Enter");
        const request = page.getByRole("region", { name: "Model completion requested (demo)" });
        await request.getByLabel("Your reply").fill("Typed by hand.");
        await request.getByRole("button", { name: "Send my reply" }).click();
        const card = page.locator(".turn").nth(2)
          .getByRole("region", { name: "Tool call summarize_with_model on demo" });
        await card.getByText("done").waitFor();
        assert.match(await card.locator(".tool-io").innerText(), /Typed by hand\./);
        await page.locator(".turn-done").nth(2).waitFor();
      });

      await test.step("requests from elsewhere wait in the sidebar and can be answered there", async () => {
        const approval = t.service.interactions.create({
          kind: "approval",
          serverId: "demo",
          tool: "deploy",
          input: { target: "prod" },
        });
        const link = t.service.interactions.create({
          kind: "elicitation",
          serverId: "demo",
          mode: "url",
          message: "Sign in to continue",
          url: "https://example.com/authorize",
        });
        const waiting = page.getByRole("region", { name: "Waiting for you (2)" });
        await waiting.waitFor();
        await screenshot(page, "sidebar-waiting");
        await waiting.getByRole("region", { name: "Run deploy (demo)?" })
          .getByRole("button", { name: "Deny" }).click();
        assert.deepEqual(await approval.response, { approved: false });
        const urlCard = page.getByRole("region", { name: "Input requested (demo)" });
        assert.equal(
          await urlCard.getByRole("link").getAttribute("href"),
          "https://example.com/authorize",
        );
        await urlCard.getByRole("button", { name: "Done" }).click();
        assert.deepEqual(await link.response, { action: "accept" });
        await page.getByRole("region", { name: /Waiting for you/ }).waitFor({ state: "detached" });
      });

      await test.step("a request that ends on its own leaves the page (interaction.resolved)", async () => {
        const { response } = t.service.interactions.create(
          { kind: "approval", serverId: "demo", tool: "cleanup", input: {} },
          { timeoutMs: 1500 },
        );
        const card = page.getByRole("region", { name: "Run cleanup (demo)?" });
        await card.waitFor();
        await assert.rejects(response, /nobody answered in time/);
        await card.waitFor({ state: "detached" });
      });

      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
