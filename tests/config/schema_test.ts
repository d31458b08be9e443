import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { defaultConfig } from "../../core/config/defaults.ts";
import { hasEnvRef } from "../../wire/config/env_refs.ts";
import { resolveEnvRef, resolveEnvRefs } from "../../core/config/env_refs.ts";
import { findConfigPath, findDataDir } from "../../core/config/lookup.ts";
import { redactConfig, REDACTED, redactUrl } from "../../core/config/redact.ts";
import { referenceProblems } from "../../wire/config/references.ts";
import { configJsonSchema } from "../../wire/config/schema.ts";
import { parseConfig } from "../../core/config/parse.ts";
import { LassError } from "../../core/errors.ts";
import { sampleConfig } from "../_helpers.ts";

function problems(input: unknown): { path: string; message: string }[] {
  try {
    parseConfig(input);
  } catch (error) {
    assert.ok(error instanceof LassError);
    assert.equal(error.code, "invalid-config");
    return error.details ?? [];
  }
  assert.fail("the config was accepted");
}

function withChange(change: (config: ReturnType<typeof sampleConfig>) => void) {
  const config = sampleConfig();
  change(config);
  return config;
}

// deno-lint-ignore no-explicit-any
type Any = any;

Deno.test("schema/service.schema.json is the JSON Schema of the zod schema (run `deno task schema`)", async () => {
  const committed = await readFile(
    new URL("../../schema/service.schema.json", import.meta.url),
    "utf8",
  );
  assert.deepEqual(JSON.parse(committed), configJsonSchema());
});

Deno.test("the sample and the default configs are valid and get defaults filled in", () => {
  const config = parseConfig(sampleConfig());
  assert.equal(config.workspaces[0].maxSteps, 12);
  assert.equal(config.mcpServers[0].timeoutMs, 30000);
  assert.equal(config.mcpServers[0].sampling, "ask");
  assert.equal(config.workspaces[1].generativeUi, true);
  parseConfig(defaultConfig(() => undefined));
  assert.deepEqual(parseConfig({}).llms, []);
});

Deno.test("a dangling reference is reported at its dotted path", () => {
  assert.deepEqual(problems(withChange((c) => ((c.workspaces as Any)[0].llmId = "nope"))), [
    { path: "workspaces.0.llmId", message: 'no llms record has id "nope"' },
  ]);
  const paths = problems(withChange((c) => {
    const ws = (c.workspaces as Any)[0];
    ws.mcpServerIds = ["demo", "gone"];
    ws.skillIds = ["lost"];
    ws.generativeUi = { catalogIds: ["none"] };
    (c.workspaces as Any)[1].agentId = "ghost";
    c.activeWorkspaceId = "missing";
  })).map((p) => p.path);
  assert.deepEqual(paths.sort(), [
    "activeWorkspaceId",
    "workspaces.0.generativeUi.catalogIds.0",
    "workspaces.0.mcpServerIds.1",
    "workspaces.0.skillIds.0",
    "workspaces.1.agentId",
  ]);
});

Deno.test("duplicate ids are reported per array", () => {
  const found = problems(withChange((c) => {
    (c.llms as Any).push({ id: "gpt", name: "Again", provider: "hosted-b", model: "x" });
    (c.mcpServers as Any).push({ id: "demo", name: "Again", transport: "stdio", command: "x" });
  }));
  assert.deepEqual(found.map((p) => p.path), ["llms.2.id", "mcpServers.2.id"]);
  assert.match(found[0].message, /duplicate id "gpt" \(first used at llms.1\)/);
});

Deno.test("out-of-range numbers, unknown enums and missing fields are rejected with paths", () => {
  const found = problems(withChange((c) => {
    (c.llms as Any)[1].temperature = 2.5;
    (c.llms as Any)[0].provider = "hosted-z";
    (c.workspaces as Any)[0].maxSteps = 0;
    (c.workspaces as Any)[1].maxSteps = 101;
    (c.mcpServers as Any)[0].transport = "websocket";
    (c.mcpServers as Any)[1].sampling = "sometimes";
    delete (c.agents as Any)[0].url;
  }));
  assert.deepEqual(found.map((p) => p.path).sort(), [
    "agents.0.url",
    "llms.0.provider",
    "llms.1.temperature",
    "mcpServers.0.transport",
    "mcpServers.1.sampling",
    "workspaces.0.maxSteps",
    "workspaces.1.maxSteps",
  ]);
});

Deno.test("per-kind rules: compatible-api needs baseURL, stdio needs command, http needs a URL", () => {
  assert.deepEqual(
    problems({ llms: [{ id: "c", name: "C", provider: "compatible-api", model: "m" }] }),
    [{ path: "llms.0.baseURL", message: "is required for compatible-api" }],
  );
  assert.deepEqual(
    problems({ mcpServers: [{ id: "s", name: "S", transport: "stdio" }] }).map((p) => p.path),
    ["mcpServers.0.command"],
  );
  assert.deepEqual(
    problems({ mcpServers: [{ id: "h", name: "H", transport: "http", url: "ftp://x" }] })
      .map((p) => p.path),
    ["mcpServers.0.url"],
  );
  assert.deepEqual(
    problems({
      mcpServers: [{ id: "h", name: "H", transport: "sse", url: "http://x", command: "y" }],
    })
      .map((p) => p.path),
    ["mcpServers.0.command"],
  );
  assert.deepEqual(problems({ skills: [{ id: "s" }] }).map((p) => p.path), ["skills.0.path"]);
  assert.deepEqual(problems({ version: 2 }).map((p) => p.path), ["version"]);
});

Deno.test("unknown record fields are errors; unknown top-level fields are kept", () => {
  assert.deepEqual(
    problems(withChange((c) => ((c.llms as Any)[0].tempreature = 1))).map((p) => p.path),
    ["llms.0.tempreature"],
  );
  assert.equal((parseConfig({ myNotes: "hi" }) as Any).myNotes, "hi");
});

Deno.test("env references resolve only when asked, a missing variable to an empty string", () => {
  const env: Record<string, string> = { KEY: "sk-1", HOST: "example.com" };
  const lookup = (name: string) => env[name];
  assert.equal(resolveEnvRef("env:KEY", lookup), "sk-1");
  assert.equal(resolveEnvRef("Bearer ${KEY}", lookup), "Bearer sk-1");
  assert.equal(resolveEnvRef("https://${HOST}/${MISSING}x", lookup), "https://example.com/x");
  assert.equal(resolveEnvRef("env:MISSING", lookup), "");
  assert.equal(resolveEnvRef("plain env:KEY", lookup), "plain env:KEY");
  const input = { headers: { a: "env:KEY" }, args: ["${HOST}"], n: 3 };
  assert.deepEqual(resolveEnvRefs(input, lookup), {
    headers: { a: "sk-1" },
    args: ["example.com"],
    n: 3,
  });
  assert.deepEqual(input.headers, { a: "env:KEY" }, "the input is not changed");
  assert.equal(hasEnvRef("env:X"), true);
  assert.equal(hasEnvRef("a ${X} b"), true);
  assert.equal(hasEnvRef("sk-123"), false);
});

Deno.test("redaction hides literal secrets and URL credentials, keeps env references", () => {
  const config = withChange((c) => {
    (c.llms as Any)[0].apiKey = "sk-literal";
    (c.llms as Any)[0].headers = { "x-a": "literal", "x-b": "Bearer ${TOKEN}" };
    (c.llms as Any)[0].baseURL = "https://user:pass@llm.example.com/v1?api_key=abc&mode=fast";
    (c.mcpServers as Any)[0].env = { TOKEN: "literal", OTHER: "env:OTHER" };
    (c.mcpServers as Any)[1].oauth = { clientId: "id", clientSecret: "shh" };
    (c.agents as Any)[0].headers = { authorization: "Basic abc" };
  });
  const out = redactConfig(config) as Any;
  assert.equal(out.llms[0].apiKey, REDACTED);
  assert.equal(out.llms[1].apiKey, "env:OPENAI_API_KEY");
  assert.deepEqual(out.llms[0].headers, { "x-a": REDACTED, "x-b": "Bearer ${TOKEN}" });
  assert.equal(
    out.llms[0].baseURL,
    `https://${REDACTED}@llm.example.com/v1?api_key=${REDACTED}&mode=fast`,
  );
  assert.deepEqual(out.mcpServers[0].env, { TOKEN: REDACTED, OTHER: "env:OTHER" });
  assert.deepEqual(out.mcpServers[1].headers, { authorization: REDACTED });
  assert.deepEqual(out.mcpServers[1].oauth, { clientId: "id", clientSecret: REDACTED });
  assert.deepEqual(out.agents[0].headers, { authorization: REDACTED });
  assert.equal(out.mcpServers[1].url, "https://mcp.example.com/mcp");
  assert.equal((config.llms as Any)[0].apiKey, "sk-literal", "the original is not changed");
  assert.equal(redactUrl("env:URL"), "env:URL");
});

Deno.test("config lookup order: flag, LASS_CONFIG, ./service.json, XDG, ~/.config", () => {
  const base = { cwd: "/work", home: "/home/u", exists: () => false, env: () => undefined };
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.equal(
    findConfigPath({ ...base, configFlag: "a.json", env: env({ LASS_CONFIG: "/b.json" }) }),
    "/work/a.json",
  );
  assert.equal(findConfigPath({ ...base, env: env({ LASS_CONFIG: "/b.json" }) }), "/b.json");
  assert.equal(
    findConfigPath({ ...base, exists: (p) => p === "/work/service.json" }),
    "/work/service.json",
  );
  assert.equal(
    findConfigPath({ ...base, env: env({ XDG_CONFIG_HOME: "/xdg" }) }),
    "/xdg/lass/service.json",
  );
  assert.equal(findConfigPath(base), "/home/u/.config/lass/service.json");
  assert.equal(findDataDir({ ...base, dataDirFlag: "d" }), "/work/d");
  assert.equal(findDataDir({ ...base, env: env({ LASS_DATA_DIR: "/data" }) }), "/data");
  assert.equal(findDataDir({ ...base, env: env({ XDG_DATA_HOME: "/xd" }) }), "/xd/lass");
  assert.equal(findDataDir(base), "/home/u/.local/share/lass");
});

Deno.test("the default config has the demo model and tools, plus a profile per detected key", () => {
  const bare = defaultConfig(() => undefined);
  assert.deepEqual(bare.llms!.map((l) => l.id), ["demo"]);
  assert.equal(bare.workspaces![0].llmId, "demo");
  assert.equal(bare.mcpServers![0].command, "service:demo");
  assert.equal(bare.$schema, "./service.schema.json");
  const env: Record<string, string> = { OPENAI_API_KEY: "sk", ANTHROPIC_API_KEY: "a" };
  const withKeys = defaultConfig((name) => env[name]);
  assert.deepEqual(withKeys.llms!.map((l) => [l.id, l.apiKey]), [
    ["demo", undefined],
    ["openai", "env:OPENAI_API_KEY"],
    ["anthropic", "env:ANTHROPIC_API_KEY"],
  ]);
  assert.equal(withKeys.workspaces![0].llmId, "demo", "the Playground uses the demo model");
  assert.ok(!JSON.stringify(withKeys).includes('"sk"'), "key values are never copied in");
});

Deno.test("URLs must be http(s) or env references; a model may use service:demo", () => {
  const paths = problems({
    llms: [{ id: "l", name: "L", provider: "compatible-api", model: "m", baseURL: "file:///etc" }],
    agents: [{ id: "a", name: "A", protocol: "a2a", url: "javascript:alert(1)" }],
    catalogs: [{ id: "c", url: "not a url" }],
  }).map((p) => p.path);
  assert.deepEqual(paths, ["llms.0.baseURL", "agents.0.url", "catalogs.0.url"]);
  parseConfig({
    llms: [{ id: "l", name: "L", provider: "compatible-api", model: "m", baseURL: "env:LLM_URL" }],
    agents: [{ id: "a", name: "A", protocol: "ag-ui", url: "http://${AGENT_HOST}/run" }],
    catalogs: [{ id: "c", url: "https://example.com/catalog.json" }],
  });
});

Deno.test("redaction also catches literal secrets mixed with references", () => {
  const out = redactConfig({
    llms: [{
      id: "l",
      baseURL: "https://u:hunter2@${HOST}/v1?api_key=sk-live&key=${KEY}",
      headers: {
        a: "Bearer sk-literal-${SUFFIX}",
        b: "Bearer ${TOKEN}",
        c: "${A}${B}",
        d: "Basic ${CREDENTIALS}",
      },
      apiKey: "sk-${PART}",
    }],
    mcpServers: [{ id: "m", url: "https://${USER}:${PASS}@example.com/mcp" }],
  }) as Any;
  assert.equal(
    out.llms[0].baseURL,
    `https://${REDACTED}@\${HOST}/v1?api_key=${REDACTED}&key=\${KEY}`,
  );
  assert.deepEqual(out.llms[0].headers, {
    a: REDACTED,
    b: "Bearer ${TOKEN}",
    c: "${A}${B}",
    d: "Basic ${CREDENTIALS}",
  });
  assert.equal(out.llms[0].apiKey, REDACTED);
  assert.equal(out.mcpServers[0].url, "https://${USER}:${PASS}@example.com/mcp");
});

Deno.test("tool-server ids cannot contain '__', which separates server and tool names", () => {
  assert.deepEqual(
    problems({ mcpServers: [{ id: "a__b", name: "A", transport: "stdio", command: "x" }] }).map((
      p,
    ) => p.path),
    ["mcpServers.0.id"],
  );
});

Deno.test("parseConfig lists reference problems beside schema errors, and reads any JSON for them", () => {
  const config = {
    llms: [{ id: "a", temperature: "hot" }, { id: "a" }],
    mcpServers: [{ id: "demo" }],
    workspaces: [
      {
        id: "w",
        llmId: "nope",
        agentId: "ghost",
        mcpServerIds: ["demo", "gone"],
        skillIds: ["s"],
        generativeUi: { catalogIds: ["c"] },
      },
    ],
    activeWorkspaceId: "other",
  };
  assert.deepEqual(referenceProblems(config), [
    { path: "llms.1.id", message: 'duplicate id "a" (first used at llms.0)' },
    { path: "workspaces.0.llmId", message: 'no llms record has id "nope"' },
    { path: "workspaces.0.agentId", message: 'no agents record has id "ghost"' },
    { path: "workspaces.0.mcpServerIds.1", message: 'no mcpServers record has id "gone"' },
    { path: "workspaces.0.skillIds.0", message: 'no skills record has id "s"' },
    { path: "workspaces.0.generativeUi.catalogIds.0", message: 'no catalogs record has id "c"' },
    { path: "activeWorkspaceId", message: 'no workspaces record has id "other"' },
  ]);
  assert.deepEqual(referenceProblems({ workspaces: "not a list", llms: [null, 3] }), []);
  // The schema fails (a temperature that is not a number, records without names) and the
  // references are still reported, each once.
  let details: { path: string; message: string }[] = [];
  try {
    parseConfig(config);
  } catch (error) {
    details = (error as LassError).details ?? [];
  }
  const paths = details.map((detail) => detail.path);
  assert.ok(paths.includes("llms.0.temperature"), "the schema error is there");
  for (const path of ["workspaces.0.llmId", "workspaces.0.mcpServerIds.1", "activeWorkspaceId"]) {
    assert.equal(paths.filter((p) => p === path).length, 1, `${path} once`);
  }
});
