/** Answers to form elicitations are checked against the request's `requestedSchema`. */
import assert from "node:assert/strict";
import { EventBus } from "../core/events.ts";
import { InteractionRegistry } from "../core/interactions.ts";
import type { LassError } from "../core/errors.ts";
import {
  configWithServers,
  type Json,
  post,
  readJsonResponse,
  startService,
  type TestService,
  waitForEvent,
} from "./_helpers.ts";
import { chatConfig } from "./_chat.ts";
import { cliHome, runLass } from "./_cli.ts";
import { v2StdioRecord } from "./_v2_fixtures.ts";

const DEMO = { id: "demo", name: "Demo", transport: "stdio", command: "service:demo" };

/** A form with every kind of field MCP elicitation allows (as server-everything asks). */
const RICH_FORM = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    name: { type: "string", title: "Name" },
    email: { type: "string", format: "email" },
    homepage: { type: "string", format: "uri" },
    birthdate: { type: "string", format: "date" },
    integer: { type: "integer", minimum: 1, maximum: 100, default: 42 },
    number: { type: "number", minimum: 0, maximum: 1000, default: 3.14 },
    friend: { type: "string", enum: ["Monica", "Joey"], default: "Monica" },
    hero: {
      type: "string",
      oneOf: [{ const: "hero-1", title: "Superman" }, { const: "hero-2", title: "Wonder Woman" }],
      default: "hero-1",
    },
    instruments: {
      type: "array",
      minItems: 1,
      maxItems: 2,
      items: { type: "string", enum: ["Guitar", "Piano", "Drums"] },
      default: ["Guitar"],
    },
    fish: {
      type: "array",
      items: { anyOf: [{ const: "fish-1", title: "Tuna" }, { const: "fish-2", title: "Trout" }] },
    },
    agree: { type: "boolean" },
  },
  required: ["name", "agree"],
};

async function nextInteraction(t: TestService): Promise<Json> {
  return (await waitForEvent(t, (e) => e.type === "interaction.created", {
    what: "interaction.created",
    ms: 30_000,
  })).data.interaction;
}

/** POSTs an answer and returns the status and error body. */
async function answer(t: TestService, id: string, response: Json) {
  return await post(t, `/api/interactions/${id}`, { response });
}

/** Asserts a 400 `invalid-request` whose details are exactly `details`. */
function assertRefused(
  result: { status: number; body: Json },
  details: { path: string; message: string }[],
) {
  assert.equal(result.status, 400, JSON.stringify(result.body));
  assert.equal(result.body.error.code, "invalid-request");
  assert.equal(result.body.error.message, "not a valid answer to an elicitation request");
  assert.deepEqual(result.body.error.details, details);
}

async function pendingIds(t: TestService): Promise<string[]> {
  const listed = await readJsonResponse(await t.call("/api/interactions"));
  return listed.body.interactions.map((i: Json) => i.id);
}

Deno.test("ask_user: answers outside the form are 400 at response.content.<field>, the question stays open, and a good answer reaches the tool", async () => {
  const t = await startService({ config: configWithServers([DEMO]) });
  try {
    const asked = nextInteraction(t);
    const call = post(t, "/api/mcp/demo/call", { tool: "ask_user", args: {} });
    const form = await asked;
    assert.deepEqual(form.requestedSchema.properties.color.enum, ["red", "green", "blue"]);

    assertRefused(
      await answer(t, form.id, {
        action: "accept",
        content: { name: "Bob", color: "nope-not-enum" },
      }),
      [{ path: "response.content.color", message: "is not one of red, green, blue" }],
    );
    assertRefused(
      await answer(t, form.id, { action: "accept", content: { name: "" } }),
      [{ path: "response.content.name", message: "must be at least 1 character long" }],
    );
    assertRefused(
      await answer(t, form.id, { action: "accept", content: { name: "x".repeat(41) } }),
      [{ path: "response.content.name", message: "must be at most 40 characters long" }],
    );
    assertRefused(
      await answer(t, form.id, {
        action: "accept",
        content: { name: "Bob", subscribe: "yes", colour: "red" },
      }),
      [
        { path: "response.content.colour", message: "is not a field of the form" },
        { path: "response.content.subscribe", message: "must be true or false" },
      ],
    );
    assert.deepEqual(await pendingIds(t), [form.id], "still waiting for an answer");
    assert.equal(
      t.service.events.history().filter((e) => e.type === "interaction.resolved").length,
      0,
    );

    const ok = await answer(t, form.id, {
      action: "accept",
      content: { name: "Bob", color: "green" },
    });
    assert.deepEqual([ok.status, ok.body], [200, { ok: true }]);
    const result = await call;
    assert.equal(result.status, 200, JSON.stringify(result.body));
    assert.deepEqual(result.body.result.structuredContent, {
      action: "accept",
      content: { name: "Bob", color: "green", subscribe: false },
    });
    const resolved = t.service.events.history().filter((e) => e.type === "interaction.resolved");
    assert.deepEqual(resolved.map((e) => e.data.response), [
      { action: "accept", content: { name: "Bob", color: "green", subscribe: false } },
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("ask_user: a decline carries no content and is not checked", async () => {
  const t = await startService({ config: configWithServers([DEMO]) });
  try {
    const asked = nextInteraction(t);
    const call = post(t, "/api/mcp/demo/call", { tool: "ask_user", args: {} });
    const form = await asked;
    const declined = await answer(t, form.id, { action: "decline" });
    assert.equal(declined.status, 200, JSON.stringify(declined.body));
    assert.deepEqual((await call).body.result.structuredContent, { action: "decline" });
  } finally {
    await t.close();
  }
});

Deno.test("a form's required fields, ranges, formats, enums and multi-selects are checked over HTTP; defaults fill the rest", async () => {
  const t = await startService();
  try {
    const { interaction, response } = t.service.interactions.create({
      kind: "elicitation",
      serverId: "everything",
      message: "Please fill in the form",
      mode: "form",
      requestedSchema: RICH_FORM,
    });
    assertRefused(
      await answer(t, interaction.id, { action: "accept", content: {} }),
      [
        { path: "response.content.name", message: "is required" },
        { path: "response.content.agree", message: "is required" },
      ],
    );
    assertRefused(
      await answer(t, interaction.id, {
        action: "accept",
        content: {
          name: "Ada",
          agree: true,
          email: "not-an-email",
          homepage: "example",
          birthdate: "2024-13-40",
          integer: 101,
          number: -1,
          friend: "Ross",
          hero: "hero-9",
          instruments: ["Guitar", "Piano", "Kazoo"],
          fish: ["fish-3"],
        },
      }),
      [
        { path: "response.content.email", message: "is not an email address" },
        { path: "response.content.homepage", message: "is not an absolute URI" },
        { path: "response.content.birthdate", message: "is not a date (YYYY-MM-DD)" },
        { path: "response.content.integer", message: "must be at most 100" },
        { path: "response.content.number", message: "must be at least 0" },
        { path: "response.content.friend", message: "is not one of Monica, Joey" },
        { path: "response.content.hero", message: "is not one of hero-1, hero-2" },
        { path: "response.content.instruments", message: "must have at most 2 choices" },
        { path: "response.content.instruments.2", message: "is not one of Guitar, Piano, Drums" },
        { path: "response.content.fish.0", message: "is not one of fish-1, fish-2" },
      ],
    );
    assertRefused(
      await answer(t, interaction.id, {
        action: "accept",
        content: { name: "Ada", agree: true, integer: 2.5, instruments: [] },
      }),
      [
        { path: "response.content.integer", message: "must be an integer" },
        { path: "response.content.instruments", message: "must have at least 1 choice" },
      ],
    );
    const given = {
      name: "Ada",
      agree: false,
      email: "ada@example.com",
      homepage: "https://example.com/ada",
      birthdate: "1815-12-10",
      hero: "hero-2",
      fish: ["fish-1", "fish-2"],
    };
    const ok = await answer(t, interaction.id, { action: "accept", content: given });
    assert.deepEqual([ok.status, ok.body], [200, { ok: true }]);
    assert.deepEqual(await response, {
      action: "accept",
      content: {
        ...given,
        integer: 42,
        number: 3.14,
        friend: "Monica",
        instruments: ["Guitar"],
      },
    });
  } finally {
    await t.close();
  }
});

Deno.test("cancels, url-mode answers and forms AJV cannot compile are not checked against a schema", async () => {
  const interactions = new InteractionRegistry(new EventBus());
  const form = { kind: "elicitation", message: "?", mode: "form" } as const;
  const cancelled = interactions.create({ ...form, requestedSchema: RICH_FORM });
  await interactions.answer(cancelled.interaction.id, { action: "cancel" });
  assert.deepEqual(await cancelled.response, { action: "cancel" });

  const url = interactions.create({
    kind: "elicitation",
    message: "?",
    mode: "url",
    url: "https://example.com",
  });
  await interactions.answer(url.interaction.id, { action: "accept" });
  assert.deepEqual(await url.response, { action: "accept" });

  // A pattern that is not a regular expression: the server judges the answer itself.
  const broken = interactions.create({
    ...form,
    requestedSchema: {
      type: "object",
      properties: { code: { type: "string", pattern: "(", default: "x" } },
    },
  });
  await interactions.answer(broken.interaction.id, { action: "accept" });
  assert.deepEqual(await broken.response, { action: "accept", content: { code: "x" } });

  // The shape is still checked first, and the message names the kind with its article.
  const approval = interactions.create({ kind: "approval", tool: "t", input: {} });
  await assert.rejects(
    interactions.answer(approval.interaction.id, { action: "accept" }),
    (e: LassError) => {
      assert.equal(e.message, "not a valid answer to an approval request");
      return true;
    },
  );
});

Deno.test("lass chat --approve all answers ask_user with the form's defaults, which pass the checks", async () => {
  const home = await cliHome(chatConfig());
  try {
    const ran = await runLass(["chat", ...home.args, "--approve", "all", "ask user please"]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stderr, /^accepted: .+\(demo\) \(--approve all, the form's defaults\)$/m);
    assert.doesNotMatch(ran.stderr, /could not answer/);
    assert.match(ran.stdout, /"name":"Ada","color":"blue","subscribe":false/);
  } finally {
    await home.close();
  }
});

Deno.test("lass chat --approve all cancels a form its defaults cannot fill, naming why, and the turn goes on", async () => {
  const home = await cliHome(chatConfig({ servers: [v2StdioRecord("modern")] }));
  try {
    const ran = await runLass(["chat", ...home.args, "--approve", "all", "ask 'Your name?'"]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(
      ran.stderr,
      /^lass: the form's answer was refused: not a valid answer to an elicitation request\n {2}response\.content\.answer: is required$/m,
    );
    assert.match(ran.stderr, /^cancelled: Your name\? \(--approve all\)$/m);
    assert.match(ran.stdout, /the user chose to cancel/);
  } finally {
    await home.close();
  }
});
