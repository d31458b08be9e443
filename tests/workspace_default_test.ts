/**
 * One rule for the workspace a request means when it names none: the active one, else the first.
 * Chat, export and generative UI agree, with and without `activeWorkspaceId`.
 */
import assert from "node:assert/strict";
import { type Json, post, readJsonResponse, startService } from "./_helpers.ts";
import { chat, chatConfig, user } from "./_chat.ts";

/** Two workspaces: `first` with generative UI, `second` without; `active` if given. */
function twoWorkspaces(active?: string): Record<string, unknown> {
  const { activeWorkspaceId: _active, ...config } = chatConfig();
  return {
    ...config,
    workspaces: [
      { id: "first", name: "First", llmId: "demo", mcpServerIds: ["demo"] },
      { id: "second", name: "Second", llmId: "demo", mcpServerIds: [], generativeUi: false },
    ],
    ...(active && { activeWorkspaceId: active }),
  };
}

/** The workspace each route took when the request named none. */
async function chosen(t: Awaited<ReturnType<typeof startService>>, session: string) {
  const { chunks } = await chat(t, { messages: [user("hello")], sessionId: session });
  assert.equal(chunks.at(-1)?.type, "finish", JSON.stringify(chunks.at(-1)));
  const stored: Json = (await readJsonResponse(await t.call(`/api/sessions/${session}`))).body;
  const exported = await post(t, "/api/export", { target: "service" });
  assert.equal(exported.status, 200, JSON.stringify(exported.body));
  const generated = await post(t, "/api/ui/generate", { prompt: "a sign-up form please" });
  return {
    chat: stored.workspaceId,
    export: JSON.parse(exported.body.code).activeWorkspaceId,
    generate: generated.status,
    generateBody: generated.body,
  };
}

Deno.test("without activeWorkspaceId, chat, export and /api/ui/generate all take the first workspace", async () => {
  const t = await startService({ config: twoWorkspaces() });
  try {
    const took = await chosen(t, "no-active");
    assert.equal(took.chat, "first");
    assert.equal(took.export, "first");
    assert.equal(took.generate, 200, JSON.stringify(took.generateBody));
    assert.equal(took.generateBody.ok, true);
  } finally {
    await t.close();
  }
});

Deno.test("with activeWorkspaceId, chat, export and /api/ui/generate all take the active one", async () => {
  const t = await startService({ config: twoWorkspaces("second") });
  try {
    const took = await chosen(t, "active");
    assert.equal(took.chat, "second");
    assert.equal(took.export, "second");
    // The active workspace has generative UI off: generation says so, about that workspace.
    assert.equal(took.generate, 404, JSON.stringify(took.generateBody));
    assert.match(took.generateBody.error.message, /the workspace second has no render tool/);
  } finally {
    await t.close();
  }
});
