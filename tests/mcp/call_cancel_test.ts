/**
 * `POST /api/mcp/:id/call` as the inspector uses it: the call's progress as `tool.progress` events
 * carrying the caller's `callId`, and `POST /api/mcp/:id/calls/:callId/cancel` cancels the call on
 * the server while it runs (404 otherwise).
 */
import assert from "node:assert/strict";
import { post, serveOverHttp, startService, TOKEN, waitForEvent } from "../_helpers.ts";
import { DEMO_SERVER } from "../_chat.ts";
import type { LassEvent } from "../../wire/events.ts";
import { type CallHost, runRequest } from "../../core/mcp/manager/calls.ts";
import type { Entry } from "../../core/mcp/manager/entry.ts";
import type { McpSession } from "../../core/mcp/session/types.ts";
import { LassError } from "../../core/errors.ts";

const config = (era: string) => ({
  mcpServers: [{ ...DEMO_SERVER, protocolEra: era }],
  workspaces: [{ id: "w", name: "W", mcpServerIds: ["demo"] }],
  activeWorkspaceId: "w",
});

for (const era of ["auto", "legacy"] as const) {
  Deno.test(`an API call reports progress with its callId, and the cancel route cancels it (${era})`, async () => {
    const t = await startService({ config: config(era) });
    const http = serveOverHttp(t);
    try {
      const done = await post(t, "/api/mcp/demo/call", {
        tool: "slow_count",
        args: { steps: 3, delayMs: 5 },
        callId: "inspector-1",
      });
      assert.equal(done.status, 200);
      const progress = t.service.events.history().filter((e) => e.type === "tool.progress");
      assert.deepEqual(
        progress.map((e) => [e.data.toolCallId, e.data.source, e.data.progress, e.data.total]),
        [["inspector-1", "api", 1, 3], ["inspector-1", "api", 2, 3], [
          "inspector-1",
          "api",
          3,
          3,
        ]],
      );
      assert.equal(progress[0].data.message, "Step 1 of 3");

      const isLog = (text: string) => (e: LassEvent) =>
        e.type === "mcp.log" && String(e.data.message).includes(`slow_count: ${text}`);
      const firstStep = waitForEvent(
        t,
        (e) => e.type === "tool.progress" && e.data.toolCallId === "inspector-2",
        { what: "tool.progress of inspector-2 (the call runs)" },
      );
      const sawCancel = waitForEvent(t, isLog("cancelled after"), {
        what: "mcp.log `slow_count: cancelled after …` (the demo server saw the cancellation)",
      });
      const ended = waitForEvent(
        t,
        (e) => e.type === "tool.result" && e.data.toolCallId === "inspector-2",
        { what: "tool.result of inspector-2" },
      );
      const call = fetch(`${http.url}/api/mcp/demo/call`, {
        method: "POST",
        headers: { "x-service-token": TOKEN, "content-type": "application/json" },
        body: JSON.stringify({
          tool: "slow_count",
          args: { steps: 40, delayMs: 250 },
          callId: "inspector-2",
        }),
      });
      await firstStep;
      const cancelled = await post(t, "/api/mcp/demo/calls/inspector-2/cancel", {});
      assert.equal(cancelled.status, 200);
      assert.deepEqual(cancelled.body, { ok: true });
      const answer = await call;
      assert.equal(answer.status, 200, "a cancelled call is an answer, not a server failure");
      const body = await answer.json();
      assert.equal(body.cancelled, true);
      assert.equal(body.result.isError, true);
      assert.match(body.result.content[0].text, /cancelled/);
      const again = await post(t, "/api/mcp/demo/calls/inspector-2/cancel", {});
      assert.equal(again.status, 404, "a second cancel finds nothing running");
      assert.equal(t.service.runningCalls.size(), 0, "the registry forgot the call");
      const result = (await ended).data;
      assert.equal(result.isError, true);
      assert.equal(result.cancelled, true);
      const [, counted] = /cancelled after (\d+) of 40/.exec(
        String((await sawCancel).data.message),
      ) ?? [];
      assert.ok(Number(counted) < 40, `the call was cut short, not after ${counted} steps`);
    } finally {
      await http.close();
      await t.close();
    }
  });
}

Deno.test("a request cancelled by its caller counts as cancelled even when its answer came", async () => {
  // What the 2026 tasks path can do: the server finishes the task with its own result (the demo's
  // slow_count answers "Cancelled after …" as a tool error) before the cancel reaches it, so the
  // session hands back an answer after the caller's signal aborted.
  const controller = new AbortController();
  const answeredAfterCancel = () => {
    controller.abort();
    return Promise.resolve({ content: [], isError: true });
  };
  await assert.rejects(
    runRequest({} as CallHost, {} as Entry, "slow_count on demo", answeredAfterCancel, {
      signal: controller.signal,
      session: {} as McpSession,
    }),
    (error) =>
      error instanceof LassError && error.code === "upstream-error" &&
      error.message === "slow_count on demo was cancelled",
  );
});
