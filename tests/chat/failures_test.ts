/** Chat turns when things go wrong: tool timeouts, a server that dies, a client that goes away, model errors. */
import assert from "node:assert/strict";
import { type Json, serveOverHttp, startService, TOKEN, waitForEvent } from "../_helpers.ts";
import {
  chat,
  chatConfig,
  DEMO_SERVER,
  demoServerStdio,
  failingServer,
  fakeLlm,
  ofType,
  readChunks,
  user,
} from "../_chat.ts";
import { startFakeVendor } from "../fixtures/fake_vendors.ts";

Deno.test("a tool call past the deadline is an error result and the turn finishes", async () => {
  const t = await startService({
    config: chatConfig({ servers: [failingServer("slow", "hang")] }),
    mcp: { callTimeoutMs: 300 },
  });
  try {
    const { chunks } = await chat(t, { messages: [user("hang please")] });
    const [result] = ofType(chunks, "tool-result");
    assert.equal(result.isError, true);
    assert.match(result.output, /no answer within 0\.3 s/);
    assert.ok(result.durationMs >= 250, String(result.durationMs));
    assert.equal(chunks.at(-1).type, "finish");
  } finally {
    await t.close();
  }
});

Deno.test("a tool server that dies mid-call is an error result; it reconnects by itself for the next turns", async () => {
  const t = await startService({
    config: chatConfig({
      servers: [failingServer("fragile", "exit")],
      workspace: { generativeUi: false },
    }),
  });
  try {
    const { chunks } = await chat(t, { messages: [user("crash now")] });
    const [result] = ofType(chunks, "tool-result");
    assert.equal(result.isError, true);
    assert.match(result.output, /crash on fragile failed/);
    assert.equal(chunks.at(-1).type, "finish");
    // A turn never waits for a server in error: it heals in the background (backoff from 1 s).
    for (let i = 0; t.service.mcp.state("fragile").status !== "connected"; i++) {
      if (i > 400) assert.fail("fragile did not reconnect by itself (connected) within 20 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const next = await chat(t, { messages: [user("ping")] });
    assert.equal(next.chunks[0].tools, 4);
    assert.equal(ofType(next.chunks, "tool-result")[0].output, "pong");
  } finally {
    await t.close();
  }
});

for (
  const [label, server] of [
    ["in-process, modern", { ...DEMO_SERVER, protocolEra: "auto" }],
    ["in-process, legacy", { ...DEMO_SERVER, protocolEra: "legacy" }],
    ["stdio, modern", demoServerStdio("modern")],
    ["stdio, legacy", demoServerStdio("legacy")],
  ] as const
) {
  Deno.test(`a client that disconnects mid-call cancels the tool call and ends the run (${label})`, async () => {
    const t = await startService({
      config: chatConfig({ servers: [server] }),
    });
    const http = serveOverHttp(t);
    try {
      const slowLog = (text: string) => (e: Json) =>
        e.type === "mcp.log" && String(e.data.message).includes(`slow_count: ${text}`);
      // The abort must reach the demo server after slow_count started, or nothing is cancelled.
      const toolStarted = waitForEvent(t, slowLog("20 steps"), {
        what: "mcp.log `slow_count: 20 steps of 200 ms` (the tool started)",
      });
      const cancelled = waitForEvent(t, slowLog("cancelled"), {
        what: "mcp.log `slow_count: cancelled after ...` (the demo server saw the cancel)",
      });
      const toolResult = waitForEvent(t, (e) => e.type === "tool.result", { what: "tool.result" });
      const errored = waitForEvent(t, (e) => e.type === "chat.error", { what: "chat.error" });
      const client = new AbortController();
      const response = await fetch(`${http.url}/api/chat`, {
        method: "POST",
        headers: { "x-service-token": TOKEN, "content-type": "application/json" },
        body: JSON.stringify({ messages: [user("slow count 20 steps of 200 ms")] }),
        signal: client.signal,
      });
      await readChunks(response, async (chunk) => {
        if (chunk.type !== "tool-call") return false;
        await toolStarted;
        client.abort();
        return true;
      }).catch(() => {});
      const result = await toolResult;
      assert.equal(result.data.isError, true);
      const error = await errored;
      assert.equal(error.data.aborted, true);
      assert.equal(t.service.events.history().some((e) => e.type === "chat.finish"), false);
      const [, counted] = /cancelled after (\d+) of 20/.exec(
        String((await cancelled).data.message),
      ) ?? [];
      assert.ok(Number(counted) < 20, `the 20-step tool call was cut short, not ${counted}`);
    } finally {
      await http.close();
      await t.close();
    }
  });
}

Deno.test("a client that disconnects mid-answer aborts the model's stream", async () => {
  const fake = await startFakeVendor();
  fake.script([{ text: Array.from({ length: 200 }, (_, i) => `word${i} `), chunkDelayMs: 20 }]);
  const t = await startService({
    config: chatConfig({
      servers: [],
      llms: [fakeLlm(fake.url)],
    }),
  });
  const http = serveOverHttp(t);
  try {
    const errored = waitForEvent(t, (e) => e.type === "chat.error");
    const client = new AbortController();
    const response = await fetch(`${http.url}/api/chat`, {
      method: "POST",
      headers: { "x-service-token": "test-token-0123456789" },
      body: JSON.stringify({ messages: [user("talk for a while")] }),
      signal: client.signal,
    });
    let texts = 0;
    await readChunks(response, (chunk) => {
      if (chunk.type === "text" && ++texts === 3) client.abort();
      return texts === 3;
    }).catch(() => {});
    assert.equal((await errored).data.aborted, true);
    for (let i = 0; i < 50 && fake.openStreams() > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(fake.openStreams(), 0, "the upstream stream was closed");
    assert.equal(fake.requests.length, 1, "no retry after the abort");
  } finally {
    await http.close();
    await t.close();
    await fake.close();
  }
});

Deno.test("a model that fails mid-turn gives an error chunk with a sentence, and the stream ends", async () => {
  const fake = await startFakeVendor();
  fake.script([{ status: 401 }]);
  const t = await startService({
    config: chatConfig({
      servers: [],
      llms: [fakeLlm(fake.url, "fake", { apiKey: "sk-wrong" })],
    }),
  });
  try {
    const errored = waitForEvent(t, (e) => e.type === "chat.error");
    const { chunks } = await chat(t, { messages: [user("hi")] });
    assert.deepEqual(chunks.map((c: Json) => c.type), ["start", "error"]);
    assert.match(chunks[1].message, /rejected the API key \(401\)/);
    assert.equal((await errored).data.runId, chunks[0].runId);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("one chat's abort and another's failure leave a third untouched", async () => {
  const t = await startService({
    config: chatConfig({
      servers: [
        { id: "demo", name: "Demo", transport: "stdio", command: "service:demo" },
        failingServer("fragile", "exit"),
      ],
    }),
  });
  try {
    const aborted = new AbortController();
    const slow = t.handler(
      new Request("http://127.0.0.1:7420/api/chat", {
        method: "POST",
        headers: { "x-service-token": "test-token-0123456789" },
        body: JSON.stringify({ messages: [user("slow count 10 steps of 100 ms")] }),
      }),
    ).then((response) =>
      readChunks(response, (chunk) => {
        if (chunk.type === "tool-call") aborted.abort();
        return chunk.type === "tool-call";
      })
    );
    const [crashed, fine] = await Promise.all([
      chat(t, { messages: [user("crash now")] }),
      chat(t, { messages: [user("please add 20 and 22")] }),
      slow,
    ]);
    assert.equal(ofType(crashed.chunks, "tool-result")[0].isError, true);
    assert.equal(ofType(fine.chunks, "tool-result")[0].output, "42");
    assert.equal(fine.chunks.at(-1).type, "finish");
  } finally {
    await t.close();
  }
});
