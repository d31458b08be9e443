/** The render tool in chat: A2UI results, a model that fixes its input, unique surface ids per run. */
import assert from "node:assert/strict";
import { BASIC_CATALOG_ID } from "../../core/genui/catalog.ts";
import { type Json, startService } from "../_helpers.ts";
import { chat, chatConfig, fakeLlm, ofType, user } from "../_chat.ts";
import { assertRenderable } from "../_genui.ts";
import { startFakeVendor } from "../fixtures/fake_vendors.ts";

Deno.test("the demo model's UI request: a ui tool-call and a tool-result with A2UI messages", async () => {
  const t = await startService({ config: chatConfig({ servers: [] }) });
  try {
    const { chunks } = await chat(t, { messages: [user("show me a sign-up form")] });
    assert.equal(chunks.at(-1).type, "finish", JSON.stringify(chunks.at(-1)));
    const [call] = ofType(chunks, "tool-call");
    assert.deepEqual([call.name, call.tool, call.source], ["render_ui", "render_ui", "ui"]);
    assert.equal(call.input.title, "Sign up");
    const [result] = ofType(chunks, "tool-result");
    assert.equal(result.isError, false, JSON.stringify(result.output));
    assert.equal(result.ui.kind, "a2ui");
    assert.equal(result.ui.title, "Sign up");
    const [create, update, data] = result.ui.messages;
    assert.equal(create.createSurface.catalogId, BASIC_CATALOG_ID);
    assert.match(create.createSurface.surfaceId, /^ui-[0-9a-f]{8}-1$/);
    assert.equal(chunks[0].runId.slice(0, 8), create.createSurface.surfaceId.slice(3, 11));
    assert.deepEqual(update.updateComponents.components.map((c: Json) => c.id), [
      "root",
      "heading",
      "email",
      "submit",
      "submitLabel",
    ]);
    assert.deepEqual(data.updateDataModel.value, { signup: { email: "" } });
    await assertRenderable(result.ui.messages);
    assert.match(result.output, /is shown to the user as the surface ui-/);
    const text = ofType(chunks, "text").map((c) => c.text).join("");
    assert.match(text, /`render_ui` returned The UI "Sign up" is shown/);
  } finally {
    await t.close();
  }
});

Deno.test("a model that sends a broken, then a repairable, then a valid input gets an error, then two surfaces", async () => {
  const fake = await startFakeVendor();
  const call = (args: Record<string, unknown>) => ({ toolCalls: [{ name: "render_ui", args }] });
  fake.script([
    call({
      surfaceId: "card",
      components: [{ id: "root", component: "Text", text: "Hi", variant: "h9" }],
    }),
    call({
      surfaceId: "card",
      components: [
        { id: "a", component: "Text", text: "Hello", variant: "H3" },
        { id: "b", component: "Text", text: "World", color: "red" },
      ],
    }),
    call({
      surfaceId: "card",
      title: "Greeting",
      components: [{ id: "root", component: "Text", text: "Hello again" }],
    }),
    { text: ["Done."] },
  ]);
  const t = await startService({
    config: chatConfig({
      servers: [],
      llms: [fakeLlm(fake.url, "f")],
    }),
  });
  try {
    const { chunks } = await chat(t, { messages: [user("greet me with a card")] });
    assert.equal(chunks.at(-1).type, "finish", JSON.stringify(chunks.at(-1)));
    const calls = ofType(chunks, "tool-call");
    assert.deepEqual(calls.map((c) => c.source), ["ui", "ui", "ui"]);
    const [broken, repaired, valid] = ofType(chunks, "tool-result");

    assert.equal(broken.isError, true);
    assert.equal(broken.ui, undefined);
    assert.equal(
      broken.output,
      "The UI was not shown: 1 problem. Fix it and call render_ui again.\n" +
        '- /components/0/variant (invalid-enum): "h9" is not one of "h1", "h2", "h3", "h4", ' +
        '"h5", "caption", "body"',
    );
    // The model got the problems back as the tool's error.
    const second = fake.requests.filter((r) => r.method === "POST")[1].body as Json;
    const toolMessage = second.messages.find((m: Json) => m.role === "tool");
    assert.match(JSON.stringify(toolMessage), /invalid-enum/);

    assert.equal(repaired.isError, false);
    assert.match(repaired.output, /Repaired before showing it:/);
    assert.match(repaired.output, /\/components\/0\/variant \(invalid-enum\): "H3" was changed/);
    assert.match(repaired.output, /\/components\/1\/color \(unknown-property\)/);
    assert.match(repaired.output, /\(missing-root\): .* wrapped in a root Column/);
    const [create, update] = repaired.ui.messages;
    assert.equal(create.createSurface.surfaceId, "card");
    assert.deepEqual(update.updateComponents.components, [
      { id: "root", component: "Column", children: ["a", "b"] },
      { id: "a", component: "Text", text: "Hello", variant: "h3" },
      { id: "b", component: "Text", text: "World" },
    ]);
    await assertRenderable(repaired.ui.messages);

    assert.equal(valid.isError, false);
    assert.equal(valid.ui.title, "Greeting");
    // Surface ids are unique within the run.
    assert.equal(valid.ui.messages[0].createSurface.surfaceId, "card-2");
    await assertRenderable([...repaired.ui.messages, ...valid.ui.messages]);
    assert.equal(ofType(chunks, "text").map((c) => c.text).join(""), "Done.");
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("the Playground starter 'Show me a small form as UI' calls Lass's render tool, not the demo server's a2ui_form", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const { chunks } = await chat(t, { messages: [user("Show me a small form as UI")] });
    assert.equal(chunks.at(-1).type, "finish", JSON.stringify(chunks.at(-1)));
    const calls = ofType(chunks, "tool-call");
    assert.deepEqual(calls.map((c) => [c.name, c.source]), [["render_ui", "ui"]]);
    const reasoning = ofType(chunks, "reasoning").map((c) => c.text).join("");
    assert.match(reasoning, /asked for UI/);
    assert.doesNotMatch(reasoning, /named/);
    const [result] = ofType(chunks, "tool-result");
    assert.equal(result.ui.kind, "a2ui");
    assert.match(result.ui.messages[0].createSurface.surfaceId, /^ui-/);
  } finally {
    await t.close();
  }
});

Deno.test("the demo model follows the workspace's render tool settings: its name and allowed components", async () => {
  const workspace = { generativeUi: { toolName: "show_ui", allow: ["Text", "Column"] } };
  const t = await startService({ config: chatConfig({ workspace }) });
  try {
    const { chunks } = await chat(t, { messages: [user("show me a form")] });
    const calls = ofType(chunks, "tool-call");
    assert.deepEqual(calls.map((c) => [c.name, c.source]), [["show_ui", "ui"]]);
    assert.deepEqual(calls[0].input.components.map((c: Json) => c.component), ["Text"]);
    const [result] = ofType(chunks, "tool-result");
    assert.equal(result.isError, false, result.output);
    await assertRenderable(result.ui.messages);
  } finally {
    await t.close();
  }
});

Deno.test("components JSON written in the message is what the demo model renders", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const card = {
      title: "Hi",
      components: [{ id: "root", component: "Text", text: "Hello from the message" }],
    };
    const asObject = await chat(t, { messages: [user(`Show this UI: ${JSON.stringify(card)}`)] });
    const [call] = ofType(asObject.chunks, "tool-call");
    assert.equal(call.name, "render_ui");
    assert.deepEqual(call.input, card);
    const [result] = ofType(asObject.chunks, "tool-result");
    assert.equal(result.ui.title, "Hi");
    assert.match(JSON.stringify(result.ui.messages), /Hello from the message/);

    const asArray = await chat(t, {
      messages: [user(`Render ${JSON.stringify(card.components)}`)],
    });
    assert.deepEqual(ofType(asArray.chunks, "tool-call").map((c) => c.input), [
      { components: card.components },
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("a message that names a demo tool calls only it, even when it says UI, form or card", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    for (
      const [message, tool] of [["legacy ui card", "legacy_ui_card"], ["a2ui form", "a2ui_form"]]
    ) {
      const { chunks } = await chat(t, { messages: [user(message)] });
      assert.deepEqual(ofType(chunks, "tool-call").map((c) => c.tool), [tool], message);
    }
  } finally {
    await t.close();
  }
});
