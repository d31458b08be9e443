/**
 * The chat in Chromium when something goes wrong or waits: a failed turn keeps its message and
 * offers Retry, the focus stays in the chat after Approve, and requests waiting outside their chat
 * name it and open it.
 */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { DEMO_LLM, DEMO_SERVER } from "../../_chat.ts";
import { type Json, waitForEvent } from "../../_helpers.ts";

const CONFIG = {
  llms: [
    DEMO_LLM,
    // Its key variable is not set: its turns fail in the stream.
    {
      id: "broken",
      name: "Broken",
      provider: "hosted-a",
      model: "gpt-5-mini",
      apiKey: "env:LASS_TEST_UNSET_KEY",
    },
  ],
  mcpServers: [DEMO_SERVER],
  workspaces: [
    { id: "w", name: "Open", llmId: "demo", mcpServerIds: ["demo"] },
    { id: "strict", name: "Strict", llmId: "demo", mcpServerIds: ["demo"], requireApproval: true },
  ],
  activeWorkspaceId: "w",
};

Deno.test({
  name: "web UI chat: a failed turn keeps its message and retries it; focus and waiting requests",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({ config: CONFIG });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    const { t } = ui;
    const message = page.getByLabel("Message", { exact: true });
    const focusedId = () => page.evaluate("document.activeElement?.id ?? ''");
    try {
      await page.goto(withToken(ui.base));
      await message.waitFor();

      await test.step("a failed turn puts the message back and offers Retry", async () => {
        await page.getByLabel("Model", { exact: true }).selectOption("broken");
        await message.fill("hello there");
        await message.press("Enter");
        const failed = page.locator(".turn-error");
        await failed.getByRole("alert").getByText("LASS_TEST_UNSET_KEY").waitFor();
        assert.equal(await message.inputValue(), "hello there", "the typed message is kept");
        const retry = failed.getByRole("button", { name: "Retry" });
        await retry.waitFor();
        await screenshot(page, "chat-failed-turn");
        // Retry sends the same message again: with a working model it is answered, and the
        // failed turn gives its place to the new one (its session keeps it, with its error).
        await page.getByLabel("Model", { exact: true }).selectOption("demo");
        await retry.click();
        await page.locator(".turn-done").waitFor();
        assert.equal(await page.locator(".turn").count(), 1);
        assert.equal(await page.locator(".turn-error").count(), 0);
        assert.match(await page.locator(".turn .msg-user").innerText(), /hello there/);
        assert.equal(await message.inputValue(), "", "the box no longer holds the sent message");
        assert.equal(await focusedId(), "composer", "the focus stays in the chat");
        await page.waitForURL(/\/chat\/[\w-]+$/);
        const id = decodeURIComponent(page.url().split("/chat/")[1]);
        const stored = await t.service.sessions.get(id);
        assert.deepEqual(
          stored.messages.filter((m: Json) => m.role === "user").map((m: Json) => m.content),
          ["hello there", "hello there"],
        );
        assert.match(String((stored.meta?.endings as Json)?.["0"]?.error), /LASS_TEST_UNSET_KEY/);
        // A reload shows the failed turn with its error and Retry, then the answered one.
        await page.reload();
        await page.locator(".turn-done").waitFor();
        assert.equal(await page.locator(".turn").count(), 2);
        await page.locator(".turn-error").getByRole("alert").getByText("LASS_TEST_UNSET_KEY")
          .waitFor();
        await page.locator(".turn-error").getByRole("button", { name: "Retry" }).waitFor();
      });

      await test.step("after Approve the focus stays in the chat, on the message box", async () => {
        await page.getByRole("button", { name: "New chat" }).click();
        await page.getByLabel("Workspace", { exact: true }).selectOption("strict");
        await message.fill("please add 2 and 3");
        await message.press("Enter");
        const card = page.getByRole("region", { name: "Tool call add on demo" });
        const approve = card.getByRole("region", { name: "Run add (demo)?" })
          .getByRole("button", { name: "Approve", exact: true });
        await approve.focus();
        await page.keyboard.press("Enter");
        await card.getByText("done").waitFor();
        await page.locator(".turn-done").waitFor();
        assert.equal(await focusedId(), "composer");
      });

      await test.step("a request of a chat not on the screen names it; its link opens it", async () => {
        await page.getByRole("button", { name: "New chat" }).click();
        await page.getByLabel("Workspace", { exact: true }).selectOption("strict");
        await message.fill("echo 'waiting elsewhere'");
        await message.press("Enter");
        const inChat = page.getByRole("region", { name: "Run echo (demo)?" });
        await inChat.waitFor();
        // Another chat is opened while this one waits (its first turn is not saved yet).
        await page.getByRole("button", { name: "New chat" }).click();
        const waiting = page.getByRole("region", { name: "Waiting for you (1)" });
        await waiting.waitFor();
        const card = waiting.getByRole("region", { name: "Run echo (demo)?" });
        const link = card.getByRole("link", { name: "echo 'waiting elsewhere'" });
        await link.waitFor();
        assert.match(await card.locator(".interaction-origin").innerText(), /^From the chat /);
        await screenshot(page, "sidebar-waiting-origin");
        await link.click();
        // The chat comes back as it was: still answering, the request in its tool card.
        await page.getByRole("region", { name: "Tool call echo on demo" })
          .getByRole("region", { name: "Run echo (demo)?" }).waitFor();
        await waiting.waitFor({ state: "detached" });
        await page.getByRole("region", { name: "Tool call echo on demo" })
          .getByRole("button", { name: "Approve", exact: true }).click();
        await page.locator(".turn-done").waitFor();
        await page.waitForURL(/\/chat\/[\w-]+$/);
      });

      await test.step("a run of a saved chat from elsewhere is named by the chat's title", async () => {
        const sessionId = "from-elsewhere";
        const put = await t.call(`/api/sessions/${sessionId}`, {
          method: "PUT",
          json: { title: "Planning notes", workspaceId: "strict", messages: [] },
        });
        assert.equal(put.status, 200, await put.text());
        await page.getByRole("button", { name: "New chat" }).click();
        // A client other than this page runs a turn of that chat; it waits for approval. Its
        // `chat.start` names a chat the sidebar did not list: the list is read again.
        const created = waitForEvent(t, (e) => e.type === "interaction.created", {
          what: "interaction.created of the other client's turn",
        });
        const turn = t.call("/api/chat", {
          method: "POST",
          json: {
            messages: [{ role: "user", content: "please add 4 and 5" }],
            workspaceId: "strict",
            sessionId,
          },
        }).then((response) => response.text());
        const request = (await created).data.interaction as Json;
        const card = page.getByRole("region", { name: "Waiting for you (1)" })
          .getByRole("region", { name: "Run add (demo)?" });
        await card.getByRole("link", { name: "Planning notes" }).click();
        await page.waitForURL(`${ui.base}/chat/${sessionId}`);
        await page.getByRole("heading", { name: "Strict" }).waitFor();
        // The other client's turn goes on once the request is answered.
        const answered = await t.call(`/api/interactions/${request.id}`, {
          method: "POST",
          json: { response: { approved: false } },
        });
        assert.equal(answered.status, 200, await answered.text());
        assert.match(await turn, /"type":"finish"/);
        await card.waitFor({ state: "detached" });
      });

      await test.step("a request outside any chat says so", async () => {
        const { response } = t.service.interactions.create({
          kind: "approval",
          serverId: "demo",
          tool: "deploy",
          input: {},
        });
        const card = page.getByRole("region", { name: "Run deploy (demo)?" });
        await card.getByText("Not from a chat").waitFor();
        await card.getByRole("button", { name: "Deny" }).click();
        assert.deepEqual(await response, { approved: false });
      });

      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
