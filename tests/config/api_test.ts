import assert from "node:assert/strict";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { REDACTED } from "../../core/config/redact.ts";
import {
  type Json,
  readJsonResponse,
  sampleConfig,
  startService,
  waitForEvent,
} from "../_helpers.ts";

async function putConfig(t: Awaited<ReturnType<typeof startService>>, body: unknown) {
  return readJsonResponse(
    await t.call("/api/config", {
      method: "PUT",
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

Deno.test("a first start writes the default config (0600) and the JSON Schema beside it", async () => {
  const t = await startService();
  try {
    const config = JSON.parse(await readFile(t.configPath, "utf8"));
    assert.equal(config.$schema, "./service.schema.json");
    assert.equal(config.workspaces[0].name, "Playground");
    assert.equal((await stat(t.configPath)).mode & 0o777, 0o600);
    const schema = JSON.parse(await readFile(join(t.dir, "service.schema.json"), "utf8"));
    assert.equal(schema.type, "object");
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/bootstrap has config, path, presets, env names and tool-server states", async () => {
  const t = await startService({ env: { OPENAI_API_KEY: "sk-secret-value", OLLAMA_HOST: "" } });
  try {
    const { status, body } = await readJsonResponse(await t.call("/api/bootstrap"));
    assert.equal(status, 200);
    assert.equal(body.configPath, t.configPath);
    assert.equal(body.config.llms[1].apiKey, "env:OPENAI_API_KEY");
    assert.deepEqual(body.env.detected, ["OPENAI_API_KEY"]);
    assert.deepEqual(Object.keys(body.presets).sort(), [
      "cloud-d",
      "compatible-api",
      "hosted-a",
      "hosted-b",
      "hosted-c",
      "local-e",
    ]);
    assert.deepEqual(body.presets["hosted-b"].envKeys.includes("ANTHROPIC_API_KEY"), true);
    assert.deepEqual(body.mcp.map((s: Json) => [s.id, s.status]), [["demo", "disconnected"]]);
    assert.deepEqual([body.skills, body.catalogs], [[], []]);
    assert.ok(!JSON.stringify(body).includes("sk-secret-value"), "env values are never sent");
  } finally {
    await t.close();
  }
});

Deno.test("a first start with provider keys in the environment: the Playground uses the demo model, with one more profile per key", async () => {
  const t = await startService({ env: { OPENAI_API_KEY: "sk-1", ANTHROPIC_API_KEY: "sk-2" } });
  try {
    const { body } = await readJsonResponse(await t.call("/api/bootstrap"));
    assert.deepEqual(body.config.llms.map((l: Json) => l.id), ["demo", "openai", "anthropic"]);
    assert.equal(body.config.activeWorkspaceId, "playground");
    assert.equal(body.config.workspaces[0].llmId, "demo");
    // The chat of the Playground answers with the demo model, no key used.
    const chatted = await t.call("/api/chat", {
      method: "POST",
      json: { messages: [{ role: "user", content: "hello" }] },
    });
    const start = JSON.parse((await chatted.text()).split("\n")[0]);
    assert.equal(start.type, "start");
    assert.equal(start.profileId, "demo");
  } finally {
    await t.close();
  }
});

Deno.test("PUT /api/config saves a valid config and answers the normalized one", async () => {
  const t = await startService();
  try {
    const changed = t.service.events.history().length;
    const { status, body } = await putConfig(t, sampleConfig());
    assert.equal(status, 200);
    assert.equal(body.ok, true);
    assert.deepEqual(body.config.workspaces[0].mcpServerIds, ["demo", "remote"]);
    const onDisk = JSON.parse(await readFile(t.configPath, "utf8"));
    assert.deepEqual(onDisk, body.config);
    assert.equal(t.service.config.config.workspaces[0].maxSteps, 12, "defaults apply in memory");
    assert.equal(
      onDisk.workspaces[0].maxSteps,
      undefined,
      "defaults are not written into the file",
    );
    assert.equal(t.service.events.history().slice(changed)[0].type, "config.changed");
  } finally {
    await t.close();
  }
});

Deno.test("a rejected PUT /api/config leaves the file byte-identical", async () => {
  const t = await startService();
  try {
    const before = await readFile(t.configPath);
    const dangling = sampleConfig();
    (dangling.workspaces as Json)[0].llmId = "nope";
    const duplicate = sampleConfig();
    (duplicate.llms as Json).push({ ...(duplicate.llms as Json)[0] });
    const outOfRange = sampleConfig();
    (outOfRange.llms as Json)[1].temperature = 7;
    const unknownProvider = sampleConfig();
    (unknownProvider.llms as Json)[1].provider = "hosted-q";
    const cases: [unknown, number, string, string?][] = [
      ["{not json", 400, "invalid-json"],
      ["", 400, "invalid-json"],
      ["[1,2]", 400, "invalid-config"],
      [dangling, 400, "invalid-config", "workspaces.0.llmId"],
      [duplicate, 400, "invalid-config", "llms.2.id"],
      [outOfRange, 400, "invalid-config", "llms.1.temperature"],
      [unknownProvider, 400, "invalid-config", "llms.1.provider"],
    ];
    for (const [input, status, code, path] of cases) {
      const response = await putConfig(t, input);
      assert.equal(response.status, status, JSON.stringify(input).slice(0, 60));
      assert.equal(response.body.error.code, code);
      if (path) assert.deepEqual(response.body.error.details.map((d: Json) => d.path), [path]);
      assert.deepEqual(await readFile(t.configPath), before);
    }
  } finally {
    await t.close();
  }
});

Deno.test("a 20 MiB PUT /api/config is refused with 413 and nothing changes", async () => {
  const t = await startService();
  try {
    const before = await readFile(t.configPath);
    const huge = JSON.stringify({ ...sampleConfig(), padding: "x".repeat(20 * 1024 * 1024) });
    const declared = await putConfig(t, huge);
    assert.equal(declared.status, 413);
    assert.equal(declared.body.error.code, "too-large");
    // The same body streamed without a Content-Length is cut off while reading.
    const bytes = new TextEncoder().encode(huge);
    const streamed = await t.call("/api/config", {
      method: "PUT",
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 1 << 20) {
            controller.enqueue(bytes.slice(i, i + (1 << 20)));
          }
          controller.close();
        },
      }),
    });
    assert.equal(streamed.status, 413);
    await streamed.body?.cancel();
    assert.deepEqual(await readFile(t.configPath), before);
  } finally {
    await t.close();
  }
});

Deno.test("two concurrent PUTs leave the file as one of the two, never a mix", async () => {
  const t = await startService();
  try {
    const a = sampleConfig();
    a.activeWorkspaceId = "main";
    const b = sampleConfig();
    b.activeWorkspaceId = "agent";
    (b.llms as Json)[0].name = "Renamed";
    for (let round = 0; round < 10; round++) {
      const [ra, rb] = await Promise.all([putConfig(t, a), putConfig(t, b)]);
      assert.equal(ra.status, 200);
      assert.equal(rb.status, 200);
      const onDisk = JSON.parse(await readFile(t.configPath, "utf8"));
      assert.ok(
        JSON.stringify(onDisk) === JSON.stringify(a) ||
          JSON.stringify(onDisk) === JSON.stringify(b),
        "the file is exactly one of the two configs",
      );
      assert.deepEqual(t.service.config.stored, onDisk, "memory and disk agree");
    }
  } finally {
    await t.close();
  }
});

Deno.test("unknown top-level fields survive round trips and updates; a PUT replaces all", async () => {
  const t = await startService({ config: { ...sampleConfig(), x_notes: "mine" } });
  try {
    const bootstrap = (await readJsonResponse(await t.call("/api/bootstrap"))).body;
    assert.equal(bootstrap.config.x_notes, "mine");
    const roundTrip = await putConfig(t, bootstrap.config);
    assert.equal(roundTrip.body.config.x_notes, "mine");
    await t.service.config.update((stored) => ({ ...stored, activeWorkspaceId: "agent" }));
    assert.equal(JSON.parse(await readFile(t.configPath, "utf8")).x_notes, "mine");
    const replaced = await putConfig(t, sampleConfig());
    assert.equal(replaced.body.config.x_notes, undefined, "the body is the whole config");
    assert.equal(JSON.parse(await readFile(t.configPath, "utf8")).x_notes, undefined);
  } finally {
    await t.close();
  }
});

Deno.test("two concurrent PUTs that differ in unknown fields still leave one of the two", async () => {
  const t = await startService();
  try {
    const a = { ...sampleConfig(), x_a: 1 };
    const b = { ...sampleConfig(), x_b: 2 };
    for (let round = 0; round < 5; round++) {
      await Promise.all([putConfig(t, a), putConfig(t, b)]);
      const onDisk = await readFile(t.configPath, "utf8");
      assert.ok(
        onDisk === JSON.stringify(a, null, 2) + "\n" ||
          onDisk === JSON.stringify(b, null, 2) + "\n",
      );
    }
  } finally {
    await t.close();
  }
});

Deno.test("an unreadable config file on disk keeps the last good config and says why", async () => {
  const t = await startService({ config: sampleConfig(), watchConfig: true });
  try {
    const invalid = waitForEvent(t, (e) => e.type === "config.invalid");
    await Deno.remove(t.configPath);
    await Deno.mkdir(t.configPath);
    assert.match(String((await invalid).data.message), /cannot read the config file|removed/);
    assert.equal(t.service.config.config.workspaces[0].llmId, "gpt");
  } finally {
    await t.close();
  }
});

Deno.test("after close, writes are refused instead of racing the exit", async () => {
  const t = await startService();
  await t.service.close();
  await assert.rejects(t.service.config.replace(sampleConfig()), /shutting down/);
  await t.close();
});

Deno.test("GET /api/config/export returns the file as stored, or redacted with ?redact=1", async () => {
  const config = sampleConfig();
  (config.llms as Json)[0].apiKey = "sk-literal";
  const text = JSON.stringify(config, null, 4);
  const t = await startService({ config: text });
  try {
    const raw = await t.call("/api/config/export");
    assert.equal(raw.status, 200);
    assert.equal(await raw.text(), text);
    const { body } = await readJsonResponse(await t.call("/api/config/export?redact=1"));
    assert.equal(body.llms[0].apiKey, REDACTED);
    assert.equal(body.llms[1].apiKey, "env:OPENAI_API_KEY");
    assert.equal(body.mcpServers[1].headers.authorization, REDACTED);
    const bad = await readJsonResponse(await t.call("/api/config/export?redact=maybe"));
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, "invalid-request");
    assert.equal(bad.body.error.details[0].path, "redact");
    // Which of two values counts would be a guess: the redacted text is never traded for the raw.
    const twice = await readJsonResponse(await t.call("/api/config/export?redact=1&redact=0"));
    assert.equal(twice.status, 400);
    assert.deepEqual(twice.body.error.details, [
      { path: "redact", message: "is given more than once" },
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/config/export?redact=1 redacts secret flags in args, as the export targets do", async () => {
  const config = sampleConfig();
  (config.mcpServers as Json[]).push({
    id: "flags",
    name: "Flags",
    transport: "stdio",
    command: "npx",
    args: [
      "-y",
      "some-server",
      "--api-key",
      "abc-literal",
      "--token=def-literal",
      "--auth-token",
      "env:FLAG_TOKEN",
      "--secret=${FLAG_SECRET}",
      "--password",
      "--verbose",
      "https://user:pw-literal@example.com/x",
    ],
  });
  (config.workspaces as Json[])[0].mcpServerIds.push("flags");
  const t = await startService({ config });
  try {
    const { body } = await readJsonResponse(await t.call("/api/config/export?redact=1"));
    assert.deepEqual(body.mcpServers[2].args, [
      "-y",
      "some-server",
      "--api-key",
      REDACTED,
      `--token=${REDACTED}`,
      "--auth-token",
      "env:FLAG_TOKEN",
      "--secret=${FLAG_SECRET}",
      "--password",
      "--verbose",
      `https://${REDACTED}@example.com/x`,
    ]);
    assert.doesNotMatch(JSON.stringify(body), /-literal/);
    // The export targets leave out the same values.
    const exported = await readJsonResponse(
      await t.call("/api/export", { method: "POST", json: { target: "mcp-json" } }),
    );
    assert.equal(exported.status, 200);
    assert.match(exported.body.code, /some-server/);
    assert.doesNotMatch(exported.body.code, /-literal/);
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/schema serves the JSON Schema", async () => {
  const t = await startService();
  try {
    const response = await t.call("/api/schema");
    assert.match(response.headers.get("content-type")!, /schema\+json/);
    const schema = await response.json();
    assert.ok(schema.properties.llms);
  } finally {
    await t.close();
  }
});

Deno.test("config routes answer 405 with Allow for other methods", async () => {
  const t = await startService();
  try {
    for (
      const [path, method, allow] of [
        ["/api/config", "DELETE", "GET, PUT, HEAD"],
        ["/api/config/export", "POST", "GET, HEAD"],
        ["/api/schema", "DELETE", "GET, HEAD"],
        ["/api/bootstrap", "PUT", "GET, HEAD"],
        ["/api/health", "POST", "GET, HEAD"],
      ]
    ) {
      const response = await t.call(path, { method, body: method === "GET" ? undefined : "{}" });
      const { status, body } = await readJsonResponse(response);
      assert.equal(status, 405, `${method} ${path}`);
      assert.equal(body.error.code, "method-not-allowed");
      assert.equal(response.headers.get("allow"), allow);
    }
  } finally {
    await t.close();
  }
});

Deno.test("an edit of the file on disk is picked up and announced", async () => {
  const t = await startService({ config: sampleConfig(), watchConfig: true });
  try {
    const changed = waitForEvent(t, (e) => e.type === "config.changed");
    const edited = sampleConfig();
    edited.activeWorkspaceId = "agent";
    await writeFile(t.configPath, JSON.stringify(edited));
    assert.equal((await changed).data.source, "file");
    assert.equal(t.service.config.config.activeWorkspaceId, "agent");
  } finally {
    await t.close();
  }
});

Deno.test("an invalid file on disk keeps the last good config and says why", async () => {
  const t = await startService({ config: sampleConfig(), watchConfig: true });
  try {
    const invalid = waitForEvent(t, (e) => e.type === "config.invalid");
    const broken = sampleConfig();
    (broken.workspaces as Json)[0].llmId = "gone";
    await writeFile(t.configPath, JSON.stringify(broken));
    const event = await invalid;
    assert.match(String(event.data.message), /workspaces\.0\.llmId/);
    assert.equal(t.service.config.config.workspaces[0].llmId, "gpt");
    const notJson = waitForEvent(t, (e) => e.type === "config.invalid");
    await writeFile(t.configPath, "{ oops");
    assert.match(String((await notJson).data.message), /not valid JSON/);
    assert.equal(t.service.config.config.workspaces[0].llmId, "gpt");
  } finally {
    await t.close();
  }
});

Deno.test("a service refuses to open an invalid config file and does not touch it", async () => {
  const text = '{"llms": [{"id": "x"}]}';
  await assert.rejects(startService({ config: text }), (error: Json) => {
    assert.equal(error.code, "invalid-config");
    assert.ok(error.details.some((d: Json) => d.path === "llms.0.provider"));
    return true;
  });
});

Deno.test("concurrent updates each see the previous one, so none is lost", async () => {
  const t = await startService({ config: sampleConfig() });
  try {
    await Promise.all(Array.from({ length: 8 }, (_, i) =>
      t.service.config.update((stored) => {
        const workspaces = stored.workspaces as Json[];
        workspaces[0].starterPrompts = [...workspaces[0].starterPrompts ?? [], `p${i}`];
        return stored;
      })));
    const prompts = JSON.parse(await readFile(t.configPath, "utf8")).workspaces[0].starterPrompts;
    assert.deepEqual(prompts, ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"]);
    await assert.rejects(
      t.service.config.update((stored) => ({ ...stored, activeWorkspaceId: "nowhere" })),
      (error: Json) => error.code === "invalid-config",
    );
    assert.equal(t.service.config.config.activeWorkspaceId, "main");
  } finally {
    await t.close();
  }
});
