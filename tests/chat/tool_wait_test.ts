/** A chat turn never stalls on a tool server: it waits for connecting ones briefly, never for failed ones. */
import assert from "node:assert/strict";
import { chat, chatConfig, DEMO_LLM, failingServer, ofType, user } from "../_chat.ts";
import { startService, waitForEvent } from "../_helpers.ts";

Deno.test("a server that never answers initialize: turns go on without it, before and after it is in error", async () => {
  const mute = failingServer("mute", "silent", { protocolEra: "legacy", timeoutMs: 2000 });
  const t = await startService({
    config: chatConfig({
      servers: [mute],
      llms: [DEMO_LLM],
      workspace: { toolServerWaitMs: 300 },
    }),
  });
  try {
    const failed = waitForEvent(
      t,
      (e) => e.type === "mcp.state" && e.data.id === "mute" && e.data.status === "error",
      { what: "mcp.state error of the silent server (its 2 s connect timeout)" },
    );
    // While it connects: the turn waits the workspace's 300 ms, then goes on without it.
    const first = (await chat(t, { messages: [user("hello")] })).chunks;
    const [start] = ofType(first, "start");
    assert.equal(start.unavailable?.[0]?.serverId, "mute");
    assert.match(start.unavailable[0].error, /still connecting after 0.3 s/);
    assert.equal(ofType(first, "finish").length, 1);

    // Once it is in error the turns do not wait for it at all (it heals in the background).
    const error = await failed;
    assert.match(String(error.data.error), /no answer to initialize/);
    for (let turn = 0; turn < 2; turn++) {
      const chunks = (await chat(t, { messages: [user("hello")] })).chunks;
      const [next] = ofType(chunks, "start");
      assert.equal(next.unavailable?.[0]?.serverId, "mute");
      // In error (the background retry, 1 s later, may already be connecting on a slow machine).
      assert.ok(["error", "connecting"].includes(next.unavailable[0].status));
      assert.match(next.unavailable[0].error, /no answer to initialize|still connecting/);
      assert.equal(ofType(chunks, "finish").length, 1);
    }
  } finally {
    await t.close();
  }
});
