/** The code exports run under Deno: a loopback fake model calls the demo server's `add` over stdio, then answers. */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { DEMO_SERVER, fakeLlm } from "../_chat.ts";
import { startService } from "../_helpers.ts";
import { exported, runDeno, tempProject } from "../_export.ts";
import {
  type FakeVendor,
  type RecordedRequest,
  startFakeVendor,
} from "../fixtures/fake_vendors.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** The demo server's tool that only its dashboard View may call (`_meta.ui.visibility: ["app"]`). */
const VIEW_ONLY = "demo__dashboard_refresh";

/** A workspace on the fake vendor's OpenAI-compatible endpoint with the demo tool server. */
function fakeConfig(fake: FakeVendor, workspace: Record<string, unknown> = {}) {
  return {
    llms: [fakeLlm(fake.url)],
    mcpServers: [
      { ...DEMO_SERVER, disabledTools: ["echo"] },
      { id: "broken", name: "Broken", transport: "stdio", command: "no-such-command-for-lass" },
    ],
    workspaces: [{
      id: "w",
      name: "W",
      llmId: "fake",
      mcpServerIds: ["demo", "broken"],
      systemPrompt: "Answer in one sentence.",
      maxSteps: 4,
      ...workspace,
    }],
  };
}

/** Exports workspace `w` as `target`, runs it with a prompt and returns its output. */
async function runExport(config: Record<string, unknown>, prompt: string, target = "sdk-a") {
  const t = await startService({ config });
  let dir: string | undefined;
  try {
    const result = await exported(t, target, "w");
    dir = await tempProject({ [result.filename]: result.code }, result.dependencies);
    return await runDeno(["run", "-A", result.filename, prompt], { cwd: dir });
  } finally {
    await t.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

function chatRequests(fake: FakeVendor): RecordedRequest[] {
  return fake.requests.filter((request) => request.path.endsWith("/chat/completions"));
}

/**
 * Runs an export on "Add 2 and 3" against the fake, which calls the demo server's `add` and
 * then answers; checks the output both targets share and returns the two model requests.
 */
async function runAddTurn(fake: FakeVendor, target: "sdk-a" | "graph-a"): Promise<Json[]> {
  fake.script([
    { toolCalls: [{ name: "demo__add", args: { a: 2, b: 3 } }] },
    { text: ["The sum ", "is 5."] },
  ]);
  const { code, stdout, stderr } = await runExport(fakeConfig(fake), "Add 2 and 3", target);
  assert.equal(code, 0, stderr);
  assert.equal(stdout, "The sum is 5.\n");
  assert.match(stderr, /> demo__add \{"a":2,"b":3\}/);
  assert.match(stderr, /< demo__add: 5/);
  assert.match(stderr, /warning: tool server broken is unavailable/);
  return chatRequests(fake).map((request) => request.body as Json);
}

Deno.test({
  name: "the sdk-a export calls the demo server's add over stdio and prints the answer",
  sanitizeResources: false,
  fn: async () => {
    const fake = await startFakeVendor();
    try {
      const [first, second] = await runAddTurn(fake, "sdk-a");
      assert.deepEqual(first.messages.slice(0, 2), [
        { role: "system", content: "Answer in one sentence." },
        { role: "user", content: "Add 2 and 3" },
      ]);
      const names = first.tools.map((tool: Json) => tool.function.name);
      assert.ok(names.includes("demo__add"), "tools carry Lass's names");
      assert.ok(!names.includes("demo__echo"), "a disabled tool is not offered");
      assert.ok(!names.includes(VIEW_ONLY), "a tool only for an MCP App's View is not offered");
      const toolMessage = second.messages.find((message: Json) => message.role === "tool");
      assert.match(toolMessage.content, /"text":"5"/);
    } finally {
      await fake.close();
    }
  },
});

Deno.test({
  name:
    "the sdk-a export asks before a call when the workspace requires approval (no terminal: no)",
  sanitizeResources: false,
  fn: async () => {
    const fake = await startFakeVendor();
    try {
      fake.script([
        { toolCalls: [{ name: "demo__add", args: { a: 1, b: 1 } }] },
        { text: ["I was not allowed to add."] },
      ]);
      const config = fakeConfig(fake, { requireApproval: true });
      const { code, stdout, stderr } = await runExport(config, "Add 1 and 1");
      assert.equal(code, 0, stderr);
      assert.equal(stdout, "I was not allowed to add.\n");
      assert.doesNotMatch(stderr, /< demo__add: 2/);
      const second = chatRequests(fake)[1].body as Json;
      const toolMessage = second.messages.find((message: Json) => message.role === "tool");
      assert.match(toolMessage.content, /denied/i);
    } finally {
      await fake.close();
    }
  },
});

Deno.test({
  name: "the graph-a export runs too: LangChain agent, demo server over stdio, Lass's tool names",
  // The first run downloads the LangChain packages from npm.
  sanitizeResources: false,
  fn: async () => {
    const fake = await startFakeVendor();
    try {
      const [first, second] = await runAddTurn(fake, "graph-a");
      assert.equal(first.messages[0].role, "system");
      assert.match(JSON.stringify(first.messages[0].content), /Answer in one sentence\./);
      const names = first.tools.map((tool: Json) => tool.function.name);
      assert.ok(names.includes("demo__add") && !names.includes("demo__echo"));
      assert.ok(!names.includes(VIEW_ONLY), "a tool only for an MCP App's View is not offered");
      assert.ok(second.messages.some((message: Json) => message.role === "tool"));
    } finally {
      await fake.close();
    }
  },
});
