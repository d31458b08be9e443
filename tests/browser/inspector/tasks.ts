/**
 * The inspector's MCP tasks in Chromium: a running task of the demo server listed, then cancelled;
 * a cancel asked while the task's connection is lost shown as asked, then sent.
 */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { configWithServers, post, waitForEvent } from "../../_helpers.ts";
import { DEMO_LLM, DEMO_SERVER } from "../../_chat.ts";
import { demoWithOutage, taskReached } from "../../_remote_demo.ts";

const CONFIG = {
  llms: [DEMO_LLM],
  mcpServers: [DEMO_SERVER],
  workspaces: [{ id: "w", name: "W", llmId: "demo", mcpServerIds: ["demo"] }],
  activeWorkspaceId: "w",
};

Deno.test({
  name:
    "web UI inspector: a running task is listed with its status and message, and Cancel cancels it",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: CONFIG });
    const page = await ui.page();
    const { t } = ui;
    try {
      await t.service.mcp.connect("demo");
      await page.goto(withToken(ui.base, "/inspector/demo"));
      await page.getByRole("tab", { name: /Tools/ }).waitFor();
      const started = await post(t, "/api/mcp/demo/call", {
        tool: "long_report",
        args: { steps: 50, delayMs: 200 },
        task: true,
      });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      const { taskId } = started.body;
      const tasks = page.getByRole("region", { name: "Tasks" });
      const row = tasks.locator(`[data-task-id="${taskId}"]`);
      await row.getByText("long_report").waitFor();
      await row.getByText(/^Step \d+ of 50$/).waitFor();
      assert.match(await row.innerText(), /working/);
      assert.match(await tasks.locator("h2").innerText(), /1 running/);
      await screenshot(page, "inspector-task-running");
      const cancelled = waitForEvent(
        t,
        (event) => event.type === "mcp.task" && event.data.status === "cancelled",
        { what: "mcp.task cancelled after the Cancel button", ms: 20_000 },
      );
      await row.getByRole("button", { name: `Cancel task ${taskId}` }).click();
      assert.equal((await cancelled).data.taskId, taskId);
      await row.getByText("cancelled", { exact: true }).waitFor();
      assert.equal(await row.getByRole("button").count(), 0);
      assert.match(await tasks.locator("h2").innerText(), /0 running/);
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});

Deno.test({
  name:
    "web UI inspector: Cancel on a task whose connection was lost shows the asked cancel, sent once the server is back",
  ignore: skipBrowser,
  fn: async () => {
    const peer = demoWithOutage();
    const ui = await startUi({
      config: configWithServers([{
        id: "remote",
        name: "Remote demo",
        transport: "http",
        oauth: false,
        url: peer.url,
      }]),
    });
    const page = await ui.page();
    const { t } = ui;
    try {
      assert.equal((await post(t, "/api/mcp/remote/connect")).body.status, "connected");
      const started = await post(t, "/api/mcp/remote/call", {
        tool: "long_report",
        args: { steps: 50, delayMs: 500 },
        task: true,
      });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      const { taskId } = started.body;
      const lost = waitForEvent(
        t,
        (e) => e.type === "mcp.state" && e.data.id === "remote" && e.data.status === "error",
        { what: "mcp.state error once the server went away", ms: 20_000 },
      );
      await peer.down();
      await lost;

      await page.goto(withToken(ui.base, "/inspector/remote"));
      const row = page.getByRole("region", { name: "Tasks" }).locator(`[data-task-id="${taskId}"]`);
      const cancel = row.getByRole("button", { name: `Cancel task ${taskId}` });
      await cancel.click();
      await row.getByText(/^Cancel asked/).waitFor();
      assert.equal(await cancel.isDisabled(), true);
      await screenshot(page, "inspector-task-cancel-asked");

      const cancelled = taskReached(t, taskId, "cancelled", 30_000);
      peer.up();
      await cancelled;
      await row.getByText("cancelled", { exact: true }).waitFor();
      assert.equal(await row.getByText(/^Cancel asked/).count(), 0);
      assert.equal(await row.getByRole("button").count(), 0);
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
      await peer.close();
    }
  },
});

Deno.test({
  name:
    "web UI inspector: Cancel in the Tasks list ends the tool panel's running call as cancelled, with no error",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: CONFIG });
    const page = await ui.page();
    const { t } = ui;
    try {
      await t.service.mcp.connect("demo");
      await page.goto(withToken(ui.base, "/inspector/demo"));
      await page.getByRole("navigation", { name: "Tools" })
        .getByRole("button", { name: /^long_report/ }).click();
      const tool = page.getByRole("article", { name: "Tool long_report" });
      await tool.getByRole("button", { name: "Raw JSON" }).click();
      await tool.getByLabel("Arguments (JSON)").fill('{"steps": 50, "delayMs": 200}');
      await tool.getByRole("button", { name: "Call" }).click();
      await tool.getByRole("status").getByText("running…").waitFor();
      const row = page.getByRole("region", { name: "Tasks" }).locator(".task-row")
        .filter({ hasText: "working" });
      await row.getByText("long_report").waitFor();
      const taskId = await row.getAttribute("data-task-id");
      // The panel's own progress line says what the Tasks list says.
      const progress = tool.getByRole("status");
      await progress.getByText(/^Step \d+ of 50$/).waitFor();
      await progress.locator(`[title="MCP task ${taskId}"]`).getByText("working").waitFor();
      const cancelled = taskReached(t, taskId!, "cancelled", 20_000);
      await row.getByRole("button", { name: `Cancel task ${taskId}` }).click();
      const result = tool.getByRole("region", { name: "Result" });
      await result.getByRole("heading", { name: "Call cancelled" }).waitFor();
      await cancelled;
      const ended = page.getByRole("region", { name: "Tasks" })
        .locator(`[data-task-id="${taskId}"]`);
      await ended.getByText("cancelled", { exact: true }).waitFor();
      assert.equal(await tool.locator(".error").count(), 0, "the panel shows no failure");
      // The tool can be called again at once.
      assert.equal(await tool.getByRole("button", { name: "Call" }).isEnabled(), true);
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
