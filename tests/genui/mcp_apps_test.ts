/** MCP Apps on the server: the View's resource with its `_meta.ui`, app-visibility, UI events. */
import assert from "node:assert/strict";
import { type Json, post, startService, type TestService } from "../_helpers.ts";
import { APP_UI_META, APP_URI } from "../fixtures/genui_app_server.ts";
import { chat, chatConfig, ofType, user } from "../_chat.ts";

const FIXTURE = new URL("../fixtures/genui_app_server.ts", import.meta.url).pathname;
const APP_SERVER = {
  id: "apps",
  name: "Apps",
  transport: "stdio",
  command: Deno.execPath(),
  args: ["run", "-A", FIXTURE],
};

/** The `.ts`/`.tsx` files under `dir`, recursively. */
async function sources(dir: URL): Promise<URL[]> {
  const found: URL[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) found.push(...await sources(new URL(`${entry.name}/`, dir)));
    else if (/\.tsx?$/.test(entry.name)) found.push(new URL(entry.name, dir));
  }
  return found;
}

async function withApps(run: (t: TestService) => Promise<void>) {
  const t = await startService({
    config: chatConfig({ servers: [APP_SERVER], workspace: { generativeUi: false } }),
  });
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

Deno.test("POST /api/mcp/:id/resource returns the View with its _meta.ui (CSP, permissions) intact", async () => {
  await withApps(async (t) => {
    const { status, body } = await post(t, "/api/mcp/apps/resource", { uri: APP_URI });
    assert.equal(status, 200, JSON.stringify(body));
    const [content] = body.contents;
    assert.equal(content.uri, APP_URI);
    assert.equal(content.mimeType, "text/html;profile=mcp-app");
    assert.match(content.text, /Fixture app/);
    assert.deepEqual(content._meta.ui, APP_UI_META);
  });
});

Deno.test("an app call of a tool whose visibility lacks app is refused with 403 forbidden-tool", async () => {
  await withApps(async (t) => {
    const refused = await post(t, "/api/mcp/apps/call", {
      tool: "model_only",
      args: {},
      from: "app",
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, "forbidden-tool");
    assert.match(refused.body.error.message, /model_only of apps is not visible to apps/);

    const appOnly = await post(t, "/api/mcp/apps/call", { tool: "app_only", from: "app" });
    assert.equal(appOnly.status, 200, JSON.stringify(appOnly.body));
    assert.equal(appOnly.body.result.content[0].text, "app-only result");
    const both = await post(t, "/api/mcp/apps/call", { tool: "open_app", from: "app" });
    assert.equal(both.status, 200);

    // A call from the API (the tool inspector) is not an app's: visibility does not apply.
    const api = await post(t, "/api/mcp/apps/call", { tool: "model_only" });
    assert.equal(api.status, 200);
    assert.equal(api.body.result.content[0].text, "model-only result");

    const bad = await post(t, "/api/mcp/apps/call", { tool: "open_app", from: "iframe" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details[0].path, "from");
  });
});

Deno.test("the model is offered model-visible tools only, so app-only tools cannot be called by it", async () => {
  await withApps(async (t) => {
    const { chunks } = await chat(t, { messages: [user("call app only now")] });
    assert.equal(chunks[0].tools, 2);
    assert.deepEqual(ofType(chunks, "tool-call"), []);
    const opened = await chat(t, { messages: [user("open app please")] });
    const [call] = ofType(opened.chunks, "tool-call");
    assert.equal(call.name, "apps__open_app");
    const [result] = ofType(opened.chunks, "tool-result");
    assert.deepEqual(result.ui, { kind: "mcp-app", serverId: "apps", resourceUri: APP_URI });
  });
});

Deno.test("POST /api/events/ui records ui.rpc and ui.action with the server and tool they concern", async () => {
  const t = await startService();
  try {
    const rpc = await post(t, "/api/events/ui", {
      type: "ui.rpc",
      data: {
        method: "tools/call",
        direction: "from-app",
        serverId: "apps",
        resourceUri: APP_URI,
        params: { name: "app_only", arguments: {} },
      },
    });
    assert.equal(rpc.status, 200);
    const action = await post(t, "/api/events/ui", {
      type: "ui.action",
      data: { name: "submit", surfaceId: "s1", serverId: "demo", tool: "a2ui_form" },
    });
    assert.equal(action.status, 200);
    const events = t.service.events.history().filter((event: Json) => event.type.startsWith("ui."));
    assert.deepEqual(
      events.map((event: Json) => [event.type, event.data.serverId, event.data.tool]),
      [
        ["ui.rpc", "apps", "app_only"],
        ["ui.action", "demo", "a2ui_form"],
      ],
    );
    const wrong = await post(t, "/api/events/ui", {
      type: "ui.rpc",
      data: { method: "tools/call", tool: 5 },
    });
    assert.equal(wrong.status, 400);
  } finally {
    await t.close();
  }
});

Deno.test("the browser's MCP Apps host is ext-apps 2 on the MCP SDK v2: islands/ imports no SDK v1", async () => {
  const root = new URL("../../", import.meta.url);
  const { imports } = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  assert.match(
    imports["@modelcontextprotocol/ext-apps"],
    /^npm:@modelcontextprotocol\/ext-apps@2\./,
  );
  const v1: string[] = [];
  for (const file of await sources(new URL("islands/", root))) {
    if ((await Deno.readTextFile(file)).includes("@modelcontextprotocol/sdk")) {
      v1.push(file.pathname.slice(root.pathname.length));
    }
  }
  assert.deepEqual(v1, [], "browser files that still import @modelcontextprotocol/sdk (v1)");
  // The bridge's types and errors come from the v2 client, whose Protocol AppBridge extends.
  const session = await Deno.readTextFile(new URL("islands/genui/mcp_app_session.ts", root));
  assert.match(session, /from "@modelcontextprotocol\/client"/);
});
