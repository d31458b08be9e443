/** The inspector's History read from a trace: pairing by id and direction, status, re-runs. */
import assert from "node:assert/strict";
import { type Exchange, rerunOf, timelineOf } from "../../islands/inspector/timeline.ts";
import type { TraceDirection, TraceMessage } from "../../wire/trace.ts";

let seq = 0;

function line(dir: TraceDirection, message: unknown, extra: Partial<TraceMessage> = {}) {
  seq++;
  return {
    seq,
    time: new Date(Date.UTC(2026, 10, 25, 12, 0, seq)).toISOString(),
    serverId: "demo",
    dir,
    message,
    bytes: JSON.stringify(message).length,
    ...extra,
  } satisfies TraceMessage;
}

const call = (id: number, name: string, args: unknown) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

Deno.test("requests pair with their responses by id and direction, in order of the requests", () => {
  const trace = [
    line("out", call(1, "add", { a: 2, b: 3 })),
    // The server asks Lass something with the same id while the call runs.
    line("in", { jsonrpc: "2.0", id: 1, method: "roots/list" }),
    line("out", { jsonrpc: "2.0", id: 1, result: { roots: [] } }, { ms: 2 }),
    line("in", {
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "warning", logger: "demo", data: "careful" },
    }),
    line("in", { jsonrpc: "2.0", id: 1, result: { content: [], isError: false } }, { ms: 40 }),
    line("out", call(2, "fail", { reason: "x" })),
    line("in", { jsonrpc: "2.0", id: 2, result: { content: [], isError: true } }, { ms: 5 }),
    line("out", { jsonrpc: "2.0", id: 3, method: "prompts/get", params: { name: "p" } }),
    line("in", { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "no" } }, { ms: 1 }),
    line("out", { jsonrpc: "2.0", id: 4, method: "resources/read", params: { uri: "demo://x" } }),
  ];
  const { items, methods } = timelineOf(trace);
  assert.deepEqual(
    items.map((item) => [item.kind, item.method, item.subject, "status" in item && item.status]),
    [
      ["exchange", "tools/call", "add", "ok"],
      ["exchange", "roots/list", "", "ok"],
      ["notice", "notifications/message", "demo: careful", false],
      ["exchange", "tools/call", "fail", "error"],
      ["exchange", "prompts/get", "p", "error"],
      ["exchange", "resources/read", "demo://x", "pending"],
    ],
  );
  const [add, roots, log] = items;
  assert.equal((add as Exchange).ms, 40);
  assert.equal((add as Exchange).response?.seq, 5);
  assert.equal((roots as Exchange).dir, "in");
  assert.equal((roots as Exchange).response?.seq, 3);
  assert.equal(log.kind === "notice" && log.level, "warning");
  // A response counts as its request's method.
  assert.equal(methods.get(5), "tools/call");
  assert.equal(methods.get(3), "roots/list");
});

Deno.test("an id used again after a reconnect starts a new exchange; a lone response stays", () => {
  const trace = [
    line("out", { jsonrpc: "2.0", id: 0, method: "tools/list" }),
    line("out", { jsonrpc: "2.0", id: 0, method: "tools/list" }),
    line("in", { jsonrpc: "2.0", id: 0, result: { tools: [] } }),
    line("in", { jsonrpc: "2.0", id: 9, result: {} }),
  ];
  const { items } = timelineOf(trace);
  assert.deepEqual(items.map((item) => "status" in item && item.status), [
    "pending",
    "ok",
    "ok",
  ]);
  assert.equal(items[2].method, "");
});

Deno.test("a clipped response is an error when its kept text starts with one", () => {
  const big = (body: string) =>
    line("in", { jsonrpc: "2.0", id: 7, clipped: body }, { truncated: true });
  const request = line("out", call(7, "big", {}));
  assert.equal(
    (timelineOf([request, big('{"jsonrpc":"2.0","id":7,"error":{"code":1')]).items[0] as Exchange)
      .status,
    "error",
  );
  assert.equal(
    (timelineOf([request, big('{"jsonrpc":"2.0","id":7,"result":{"error":')]).items[0] as Exchange)
      .status,
    "ok",
  );
});

Deno.test("tool calls, prompts and reads made by Lass can be sent again; others cannot", () => {
  const { items } = timelineOf([
    line("out", call(1, "add", { a: 1 })),
    line("out", {
      jsonrpc: "2.0",
      id: 2,
      method: "prompts/get",
      params: { name: "p", arguments: { x: "1", n: 2 } },
    }),
    line("out", { jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "demo://r" } }),
    line("in", { jsonrpc: "2.0", id: 4, method: "sampling/createMessage", params: {} }),
    line("out", { jsonrpc: "2.0", id: 5, method: "tools/call", clipped: "{" }, { truncated: true }),
  ]);
  assert.deepEqual(items.map((item) => rerunOf(item as Exchange)), [
    { kind: "tool", name: "add", args: { a: 1 } },
    { kind: "prompt", name: "p", args: { x: "1" } },
    { kind: "resource", uri: "demo://r" },
    null,
    null,
  ]);
});
