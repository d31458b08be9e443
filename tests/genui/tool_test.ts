/** The render tool a workspace sends, component previews, and `POST /api/ui/generate`. */
import assert from "node:assert/strict";
import { BASIC_CATALOG_ID } from "../../core/genui/catalog.ts";
import { offerFor } from "../../core/genui/offer.ts";
import { renderToolDefinition } from "../../core/genui/render_tool.ts";
import { type Json, post, readJsonResponse, startService } from "../_helpers.ts";
import { chat, chatConfig, DEMO_LLM, fakeLlm, user } from "../_chat.ts";
import { assertRenderable, bannerCatalog } from "../_genui.ts";
import { startFakeVendor } from "../fixtures/fake_vendors.ts";

const BANNERS = "https://example.com/catalogs/banner/v1/catalog.json";

Deno.test("GET /api/ui/tool: the default render tool, its schema, components and instructions", async () => {
  const t = await startService({ config: chatConfig({ servers: [] }) });
  try {
    const { status, body } = await readJsonResponse(await t.call("/api/ui/tool?workspaceId=w"));
    assert.equal(status, 200);
    assert.equal(body.name, "render_ui");
    assert.match(body.description, /A2UI/);
    assert.deepEqual(Object.keys(body.inputSchema.properties), [
      "title",
      "surfaceId",
      "components",
      "data",
    ]);
    assert.deepEqual(body.inputSchema.required, ["components"]);
    const item = body.inputSchema.properties.components.items;
    assert.deepEqual(item.required, ["id", "component"]);
    assert.equal(item.properties.component.enum.length, 18);
    assert.equal(body.components.length, 18);
    const text = body.components.find((c: Json) => c.name === "Text");
    assert.equal(text.catalogId, BASIC_CATALOG_ID);
    assert.equal(
      text.signature,
      'Text: text* (DynamicString); variant ("h1"|"h2"|"h3"|"h4"|"h5"|"caption"|"body", ' +
        'default "body")',
    );
    assert.match(body.instructions, /^# Generative UI/);
    assert.ok(body.instructions.includes(`- ${text.signature}`));
    assert.match(body.instructions, /Example \(a sign-up form\):/);
    assert.equal(body.examples.length, 1);
    assert.equal(body.examples[0].prompt, "a sign-up form");
    assert.ok(body.instructions.includes(JSON.stringify(body.examples[0].input)));
    // The active workspace is the default.
    const active = await t.call("/api/ui/tool").then((r) => r.json());
    assert.deepEqual(active, body);
    const unknown = await t.call("/api/ui/tool?workspaceId=nope");
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("the render tool follows the workspace's settings: name, catalogs, allow/deny, texts, theme", async () => {
  const t = await startService({
    config: {
      llms: [DEMO_LLM],
      catalogs: [{ id: "banners", catalog: bannerCatalog() }],
      workspaces: [
        {
          id: "custom",
          name: "Custom",
          generativeUi: {
            toolName: "show_ui",
            standard: false,
            catalogIds: ["banners"],
            description: "Shows banners.",
            instructions: "Prefer warn banners.",
            examples: [{ prompt: "a notice", input: { components: [] } }],
          },
        },
        {
          id: "mixed",
          name: "Mixed",
          generativeUi: {
            deny: ["Image", "Video"],
            theme: { primaryColor: "#112233", agentDisplayName: "Lass" },
          },
        },
        { id: "narrow", name: "Narrow", generativeUi: { allow: ["Column", "Text", "Badge"] } },
        { id: "off", name: "Off", generativeUi: false },
        { id: "nothing", name: "Nothing", generativeUi: { allow: ["Carousel"] } },
      ],
    },
  });
  try {
    const custom = await t.call("/api/ui/tool?workspaceId=custom").then((r) => r.json());
    assert.equal(custom.name, "show_ui");
    assert.equal(custom.description, "Shows banners.");
    assert.deepEqual(custom.components.map((c: Json) => [c.name, c.catalogId]), [
      ["Banner", BANNERS],
      ["Badge", BANNERS],
    ]);
    assert.equal(custom.inputSchema.properties.catalogId, undefined);
    assert.match(custom.instructions, /Call `show_ui`/);
    assert.match(
      custom.instructions,
      /- Banner: message\* \(DynamicString\); tone \("info"\|"warn"/,
    );
    assert.match(custom.instructions, /Example \(a notice\):\n\{"components":\[\]\}/);
    assert.doesNotMatch(custom.instructions, /sign-up form/);
    assert.match(custom.instructions, /Prefer warn banners\.$/);

    // Without catalogIds every configured catalog is offered besides the standard one.
    const mixed = await t.call("/api/ui/tool?workspaceId=mixed").then((r) => r.json());
    assert.deepEqual(mixed.inputSchema.properties.catalogId.enum, [BASIC_CATALOG_ID, BANNERS]);
    const names = mixed.components.map((c: Json) => c.name);
    assert.equal(names.length, 18 - 2 + 2);
    assert.ok(!names.includes("Image") && !names.includes("Video"));
    assert.match(mixed.instructions, /Several catalogs are offered/);

    const narrow = await t.call("/api/ui/tool?workspaceId=narrow").then((r) => r.json());
    assert.deepEqual(narrow.components.map((c: Json) => c.name), ["Text", "Column", "Badge"]);
    assert.deepEqual(narrow.inputSchema.properties.components.items.properties.component.enum, [
      "Text",
      "Column",
      "Badge",
    ]);

    // The theme goes into createSurface.
    const preview = await post(t, "/api/ui/preview", {
      input: { components: [{ id: "root", component: "Text", text: "hi" }] },
      workspaceId: "mixed",
    });
    assert.deepEqual(preview.body.messages[0].createSurface.theme, {
      primaryColor: "#112233",
      agentDisplayName: "Lass",
    });
    // A Badge (custom catalog) and Text (standard) cannot share one surface.
    const mixedUp = await post(t, "/api/ui/preview", {
      input: {
        components: [
          { id: "root", component: "Column", children: ["b"] },
          { id: "b", component: "Badge", label: "new" },
        ],
      },
      workspaceId: "mixed",
    });
    assert.equal(mixedUp.body.problems[0].code, "unknown-component");
    assert.match(mixedUp.body.problems[0].message, /belongs to the catalog .*banner/);

    for (const id of ["off", "nothing"]) {
      const response = await t.call(`/api/ui/tool?workspaceId=${id}`);
      assert.equal(response.status, 404, id);
      assert.match((await response.json()).error.message, /has no render tool/);
    }
  } finally {
    await t.close();
  }
});

Deno.test("the model is sent the render tool's schema and instructions, exactly as GET /api/ui/tool says", async () => {
  const fake = await startFakeVendor();
  fake.script([{ text: ["ok"] }]);
  const t = await startService({
    config: chatConfig({
      servers: [],
      llms: [fakeLlm(fake.url, "f")],
      workspace: { systemPrompt: "Be brief.", generativeUi: { deny: ["Modal"] } },
    }),
  });
  try {
    const tool = await t.call("/api/ui/tool?workspaceId=w").then((r) => r.json());
    const { chunks } = await chat(t, { messages: [user("hi")] });
    assert.equal(chunks[0].tools, 1);
    const body = fake.requests.find((r) => r.method === "POST")!.body as Json;
    assert.deepEqual(body.tools, [{
      type: "function",
      function: { name: "render_ui", description: tool.description, parameters: tool.inputSchema },
    }]);
    assert.equal(body.messages[0].role, "system");
    assert.equal(body.messages[0].content, `Be brief.\n\n${tool.instructions}`);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("each turn shares the render tool built once, until the workspace or the catalogs change", async () => {
  const fake = await startFakeVendor();
  fake.script([{ text: ["one"] }, { text: ["two"] }, { text: ["three"] }, { text: ["four"] }]);
  const config = chatConfig({ servers: [], llms: [fakeLlm(fake.url, "f")] });
  const t = await startService({ config });
  /** The component names and the system prompt of each model request so far. */
  const sent = () =>
    fake.requests.filter((r) => r.method === "POST").map((r) => {
      const body = r.body as Json;
      const tool = (body.tools as Json[])[0].function as Json;
      return {
        names: tool.parameters.properties.components.items.properties.component.enum as string[],
        system: body.messages[0].content as string,
      };
    });
  try {
    await chat(t, { messages: [user("hi")] });
    await chat(t, { messages: [user("hi")] });
    const [first, second] = sent();
    assert.deepEqual(second, first);
    const definition = async () =>
      renderToolDefinition(
        offerFor(t.service.config.config.workspaces[0], await t.service.catalogs.list())!,
      );
    const shared = await definition();
    assert.equal(await definition(), shared, "built once while nothing changed");
    assert.ok(first.names.includes("Modal"));

    const denied = {
      ...config,
      workspaces: [{ ...(config.workspaces as Json[])[0], generativeUi: { deny: ["Modal"] } }],
    };
    assert.equal((await t.call("/api/config", { method: "PUT", json: denied })).status, 200);
    await chat(t, { messages: [user("hi")] });
    assert.notEqual(await definition(), shared, "built again for the changed workspace");
    const third = sent()[2];
    assert.ok(!third.names.includes("Modal"));
    assert.equal(third.names.length, first.names.length - 1);

    const withBanners = { ...denied, catalogs: [{ id: "banners", catalog: bannerCatalog() }] };
    assert.equal((await t.call("/api/config", { method: "PUT", json: withBanners })).status, 200);
    await chat(t, { messages: [user("hi")] });
    const fourth = sent()[3];
    assert.ok(fourth.names.includes("Banner"));
    assert.match(fourth.system, /Several catalogs are offered/);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("POST /api/ui/preview of a component renders one example of each standard component", async () => {
  const t = await startService({
    config: { catalogs: [{ id: "banners", catalog: bannerCatalog() }] },
  });
  try {
    const catalogs = await t.service.catalogs.list();
    const standard = catalogs[0];
    assert.equal(standard.components.length, 18);
    for (const { name } of standard.components) {
      const { status, body } = await post(t, "/api/ui/preview", {
        component: { catalogId: "standard", name },
      });
      assert.equal(status, 200, name);
      assert.deepEqual(body.component, { catalogId: BASIC_CATALOG_ID, name });
      assert.deepEqual(body.problems, [], `${name}: ${JSON.stringify(body.problems)}`);
      assert.equal(body.ok, true);
      const [, update] = body.messages;
      assert.equal(update.updateComponents.components[0].component, name);
      await assertRenderable(body.messages);
    }
    // By catalog id too, and for a configured catalog.
    const banner = await post(t, "/api/ui/preview", {
      component: { catalogId: BANNERS, name: "Banner" },
    });
    assert.equal(banner.body.ok, true, JSON.stringify(banner.body.problems));
    assert.deepEqual(banner.body.input.components[0], {
      id: "root",
      component: "Banner",
      message: "Message",
    });
    await assertRenderable(banner.body.messages, catalogs);
    const missing = await post(t, "/api/ui/preview", {
      component: { catalogId: "standard", name: "Carousel" },
    });
    assert.equal(missing.status, 404);
    const noCatalog = await post(t, "/api/ui/preview", {
      component: { catalogId: "nope", name: "Text" },
    });
    assert.equal(noCatalog.status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/ui/generate runs the demo model with only the render tool", async () => {
  const t = await startService({
    config: {
      ...chatConfig(),
      workspaces: [
        { id: "w", name: "W", mcpServerIds: ["demo"] },
        { id: "off", name: "Off", generativeUi: false },
      ],
    },
  });
  try {
    const { status, body } = await post(t, "/api/ui/generate", {
      prompt: "a sign-up form please",
      workspaceId: "w",
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.ok, true);
    assert.equal(body.attempts, 1);
    assert.deepEqual(body.problems, []);
    assert.equal(body.title, "Sign up");
    assert.match(body.surfaceId, /^generated-1$/);
    assert.equal(body.messages[0].createSurface.catalogId, BASIC_CATALOG_ID);
    assert.equal(body.messages[1].updateComponents.components[0].id, "root");
    assert.deepEqual(body.messages[2].updateDataModel.value, { signup: { email: "" } });
    await assertRenderable(body.messages);
    assert.match(body.text, /render_ui/);
    assert.ok(body.usage.inputTokens > 0 && body.usage.outputTokens > 0);
    // The first step must call the tool, even for a prompt that does not ask for UI by name.
    const forced = await post(t, "/api/ui/generate", { prompt: "the weather in Oslo" });
    assert.equal(forced.body.ok, true);
    const off = await post(t, "/api/ui/generate", { prompt: "a form", workspaceId: "off" });
    assert.equal(off.status, 404);
    const noModel = await post(t, "/api/ui/generate", { prompt: "a form", llmId: "nope" });
    assert.equal(noModel.status, 404);
    const empty = await post(t, "/api/ui/generate", { prompt: " " });
    assert.equal(empty.status, 400);
  } finally {
    await t.close();
  }
});
