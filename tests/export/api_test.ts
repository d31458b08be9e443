/** `POST /api/export`: errors, every target for every provider and transport kind, no secrets, round trips. */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseConfig } from "../../core/config/parse.ts";
import { demoServerCommand } from "../../core/export/demo_command.ts";
import { EXPORT_TARGETS } from "../../wire/export.ts";
import { PINNED_VERSIONS } from "../../core/export/versions.ts";
import { toolInfo } from "../../core/mcp/manager/state.ts";
import { modelToolName } from "../../core/mcp/tool_names.ts";
import { chat, DEMO_LLM, DEMO_SERVER, ofType, user } from "../_chat.ts";
import { configWithServers, type Json, post, startService } from "../_helpers.ts";
import {
  everyLlm,
  everyServer,
  everythingConfig,
  everyWorkspaceId,
  exported,
  SECRET_MARK,
} from "../_export.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

Deno.test("POST /api/export rejects an unknown target with 400 and the targets it knows", async () => {
  const t = await startService({ config: everythingConfig() });
  try {
    const { status, body } = await post(t, "/api/export", {
      target: "cobol",
      workspaceId: "w-demo",
    });
    assert.equal(status, 400);
    assert.equal(body.error.code, "invalid-request");
    assert.equal(body.error.details[0].path, "target");
    assert.match(body.error.details[0].message, /sdk-a, graph-a, mcp-json, service/);
    const missing = await post(t, "/api/export", { workspaceId: "w-demo" });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.details[0].path, "target");
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/export answers 404 for an unknown workspace", async () => {
  const t = await startService({ config: everythingConfig() });
  try {
    for (const target of EXPORT_TARGETS) {
      const { status, body } = await post(t, "/api/export", { target, workspaceId: "nope" });
      assert.equal(status, 404, target);
      assert.equal(body.error.code, "not-found");
      assert.match(body.error.message, /nope/);
    }
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/export without workspaceId exports the active workspace", async () => {
  const t = await startService({ config: everythingConfig() });
  try {
    const { status, body } = await post(t, "/api/export", { target: "service" });
    assert.equal(status, 200);
    assert.equal(JSON.parse(body.code).workspaces[0].id, "w-demo");
    assert.equal(body.filename, "service.json");
  } finally {
    await t.close();
  }
});

Deno.test("every target exports every provider and transport kind with no literal secret", async () => {
  const t = await startService({ config: everythingConfig() });
  try {
    for (const id of everyWorkspaceId()) {
      for (const target of EXPORT_TARGETS) {
        const result = await exported(t, target, id);
        const where = `${target} of ${id}`;
        assert.ok(!result.code.includes(SECRET_MARK), `${where} holds a literal secret`);
        assert.ok(!JSON.stringify(result.env).includes(SECRET_MARK), where);
        for (const [name, version] of Object.entries(result.dependencies)) {
          assert.equal(version, PINNED_VERSIONS[name as keyof typeof PINNED_VERSIONS], where);
        }
        for (const variable of result.env) {
          assert.ok(result.code.includes(variable.name), `${where} names ${variable.name}`);
        }
        if (target === "service") parseConfig(JSON.parse(result.code));
        if (target === "mcp-json") assert.equal(result.filename, ".mcp.json");
      }
    }
  } finally {
    await t.close();
  }
});

Deno.test("literal secrets become named variables the export tells the user to set", async () => {
  const t = await startService({ config: everythingConfig() });
  try {
    const result = await exported(t, "sdk-a", "w-openai");
    const replaced = result.env.filter((v: Json) => v.replacesLiteral).map((v: Json) => v.name);
    assert.deepEqual(replaced, [
      "OPENAI_API_KEY",
      "FILES_API_KEY",
      "FILES_TOKEN",
      "GITHUB_TOKEN",
      "REMOTE_AUTHORIZATION",
      "LEGACY_URL",
    ]);
    assert.match(result.code, /OPENAI_API_KEY: API key of the model profile "OpenAI" \(set it/);
    assert.match(result.code, /apiKey: env\("OPENAI_API_KEY"\)/);
    assert.match(result.code, /Authorization: `Bearer \$\{env\("REMOTE_AUTHORIZATION"\)\}`/);
    assert.match(result.code, /"X-Team": env\("TEAM_ID"\)/);
    assert.match(result.code, /url: env\("LEGACY_URL"\)/);
    const references = result.env.filter((v: Json) => !v.replacesLiteral).map((v: Json) => v.name);
    assert.ok(references.includes("TEAM_ID") && references.includes("LEGACY_TOKEN"));
    // The header pins every package it imports.
    for (const [name, version] of Object.entries(result.dependencies)) {
      assert.ok(result.code.includes(`${name}@${version}`), name);
    }
  } finally {
    await t.close();
  }
});

Deno.test("code exports carry max steps, the system prompt, skills, disabled tools and approvals", async () => {
  const t = await startService({ config: everythingConfig() });
  try {
    const sdk = (await exported(t, "sdk-a", "w-openai")).code;
    assert.match(sdk, /const MAX_STEPS = 5;/);
    assert.match(sdk, /isStepCount\(MAX_STEPS - steps\)/);
    assert.match(sdk, /instructions: INSTRUCTIONS/);
    assert.match(sdk, /Quote \\`code\\` and \\\$\{braces\} literally\./);
    assert.match(sdk, /## Skill: notes\n\nTake notes in Markdown\n\nWrite \\`# Title\\` first\./);
    assert.match(sdk, /disabledTools: \["write_file"\]/);
    // requireApproval asks for every tool, except the one the server runs without asking.
    assert.match(sdk, /approval: \{ default: "ask", tools: \{ read_file: "auto" \} \}/);
    assert.match(sdk, /toolApproval: /);
    const graph = (await exported(t, "graph-a", "w-claude")).code;
    assert.match(graph, /createAgent\(/);
    assert.match(graph, /new MultiServerMCPClient\(/);
    assert.match(graph, /new ChatAnthropic\(/);
    assert.match(graph, /modelCallLimitMiddleware\(\{ runLimit: MAX_STEPS/);
    assert.match(graph, /const MAX_STEPS = 7;/);
    assert.match(graph, /systemPrompt: SYSTEM_PROMPT/);
    assert.match(
      graph,
      /files: \{\n\s+disabledTools: \["write_file"\],\n\s+approval: \{ default: "ask"/,
    );
  } finally {
    await t.close();
  }
});

Deno.test("the demo tool server exports as Lass's CLI demo-server command", async () => {
  const t = await startService({ config: everythingConfig() });
  try {
    const json = JSON.parse((await exported(t, "mcp-json", "w-demo")).code);
    assert.deepEqual(json.mcpServers.demo, {
      type: "stdio",
      command: "deno",
      args: ["run", "--quiet", "--no-prompt", MAIN, "demo-server"],
    });
    const sdk = (await exported(t, "sdk-a", "w-demo")).code;
    assert.ok(sdk.includes(JSON.stringify(MAIN)));
    assert.match(sdk, /OPENAI_COMPATIBLE_BASE_URL/);
    assert.match(sdk, /"http:\/\/localhost:11434\/v1"/);
  } finally {
    await t.close();
  }
  assert.deepEqual(demoServerCommand("file:///opt/lass/dist/lass.js").args, [
    "run",
    "--quiet",
    "--no-prompt",
    "/opt/lass/dist/lass.js",
    "demo-server",
  ]);
  const compiled = demoServerCommand("file:///tmp/deno-compile-lass/core/export/demo_command.ts");
  assert.deepEqual(compiled, { command: Deno.execPath(), args: ["demo-server"] });
});

Deno.test("the exported toolName helper names tools exactly as Lass does", async () => {
  const t = await startService({ config: everythingConfig() });
  let code: string;
  try {
    code = (await exported(t, "sdk-a", "w-demo")).code;
  } finally {
    await t.close();
  }
  const start = code.indexOf("/** A short, stable hash");
  const end = code.indexOf("\n}\n", code.indexOf("function toolName(")) + 2;
  assert.ok(start > 0 && end > start);
  const source = `${code.slice(start, end)}\nexport { toolName };\n`;
  const helper = await import(`data:application/typescript;base64,${btoa(source)}`);
  const tools = ["add", "get-weather", "a.b/c", "with space", "café", "x".repeat(70), "ok_tool"];
  for (const server of ["demo", "my-server", "s".repeat(40)]) {
    for (const tool of tools) {
      assert.equal(helper.toolName(server, tool), modelToolName(server, tool), `${server} ${tool}`);
    }
  }
});

Deno.test("sdk-a and graph-a never offer a tool that MCP Apps keep for their View, as Lass", async () => {
  const t = await startService({ config: everythingConfig() });
  const codes: Record<string, string> = {};
  try {
    for (const target of ["sdk-a", "graph-a"]) {
      codes[target] = (await exported(t, target, "w-demo")).code;
    }
  } finally {
    await t.close();
  }
  assert.match(codes["sdk-a"], /disabledTools\.includes\(name\) \|\| !forModel\(tool\._meta\)/);
  assert.match(codes["graph-a"], /viewOnly\.has\(tool\.name\)/);
  const metas = [
    undefined,
    {},
    { ui: {} },
    { ui: { visibility: ["model"] } },
    { ui: { visibility: ["app"] } },
    { ui: { visibility: ["model", "app"] } },
    { ui: { visibility: [] } },
    { ui: { visibility: "app" } },
    { ui: { resourceUri: "ui://x", visibility: ["app"] } },
  ];
  for (const [target, code] of Object.entries(codes)) {
    const start = code.indexOf("/**\n * Whether the model may see a tool");
    const end = code.indexOf("\n}\n", code.indexOf("function forModel(")) + 2;
    assert.ok(start > 0 && end > start, target);
    const source = `${code.slice(start, end)}\nexport { forModel };\n`;
    const helper = await import(`data:application/typescript;base64,${btoa(source)}`);
    for (const meta of metas) {
      const tool = { name: "t", inputSchema: { type: "object" as const }, _meta: meta };
      const lass = toolInfo("s", tool, []).modelVisible;
      assert.equal(helper.forModel(meta), lass, `${target} ${JSON.stringify(meta)}`);
    }
  }
});

Deno.test("the mcp-json export round-trips through POST /api/mcp/import", async () => {
  const source = await startService({ config: everythingConfig() });
  const target = await startService({ config: configWithServers([]) });
  try {
    const { code, env } = await exported(source, "mcp-json", "w-demo");
    const { status, body } = await post(target, "/api/mcp/import", { json: code });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.format, "claude-code");
    assert.deepEqual(body.warnings, []);
    assert.deepEqual(body.servers, [
      {
        id: "demo",
        name: "demo",
        transport: "stdio",
        command: "deno",
        args: ["run", "--quiet", "--no-prompt", MAIN, "demo-server"],
      },
      {
        id: "files",
        name: "files",
        transport: "stdio",
        command: "npx",
        args: [
          "-y",
          "@modelcontextprotocol/server-filesystem",
          "${HOME}/notes",
          "--api-key",
          "${FILES_API_KEY}",
          "--token=${FILES_TOKEN}",
        ],
        env: { GITHUB_TOKEN: "${GITHUB_TOKEN}", DEBUG: "${FILES_DEBUG}" },
        cwd: `${source.dir}/servers/files`,
      },
      {
        id: "remote",
        name: "remote",
        transport: "http",
        url: "https://mcp.example.com/mcp",
        headers: { Authorization: "Bearer ${REMOTE_AUTHORIZATION}", "X-Team": "${TEAM_ID}" },
      },
      {
        id: "legacy",
        name: "legacy",
        transport: "sse",
        url: "${LEGACY_URL}",
        headers: { Authorization: "Bearer ${LEGACY_TOKEN}" },
      },
    ]);
    assert.deepEqual(
      env.map((variable: Json) => variable.name),
      [
        "HOME",
        "FILES_API_KEY",
        "FILES_TOKEN",
        "GITHUB_TOKEN",
        "FILES_DEBUG",
        "REMOTE_AUTHORIZATION",
        "TEAM_ID",
        "LEGACY_URL",
        "LEGACY_TOKEN",
      ],
    );
  } finally {
    await source.close();
    await target.close();
  }
});

Deno.test("the service export, started as a config, serves the same workspace", async () => {
  const workspace = {
    id: "play",
    name: "Play",
    llmId: "demo",
    mcpServerIds: ["demo"],
    skillIds: ["notes"],
    systemPrompt: "Be brief.",
    starterPrompts: ["Add 2 and 3 with a tool"],
    maxSteps: 6,
    generativeUi: false,
  };
  const original = {
    llms: [DEMO_LLM, everyLlm()[1]],
    mcpServers: [DEMO_SERVER, ...everyServer().slice(1, 3)],
    skills: everythingConfig().skills as Json[],
    workspaces: [workspace, { id: "other", name: "Other", mcpServerIds: ["files"] }],
    activeWorkspaceId: "other",
  };
  const source = await startService({ config: original });
  let copy;
  try {
    const { code } = await exported(source, "service", "play");
    const config = parseConfig(JSON.parse(code));
    assert.deepEqual(config.workspaces, [parseConfig(original).workspaces[0]]);
    assert.deepEqual(config.llms.map((llm) => llm.id), ["demo"]);
    assert.deepEqual(config.mcpServers.map((server) => server.id), ["demo"]);
    copy = await startService({ config: code });
  } finally {
    await source.close();
  }
  try {
    const boot = await copy.call("/api/bootstrap").then((response) => response.json());
    assert.equal(boot.config.activeWorkspaceId, "play");
    assert.deepEqual(boot.config.workspaces.map((w: Json) => w.id), ["play"]);
    assert.deepEqual(boot.skills.map((skill: Json) => skill.name), ["notes"]);
    const { status, chunks } = await chat(copy, {
      workspaceId: "play",
      messages: [user("Add 2 and 3 with a tool")],
    });
    assert.equal(status, 200);
    const [call] = ofType(chunks, "tool-call");
    assert.equal(call.name, "demo__add");
    assert.equal(chunks.at(-1).type, "finish");
  } finally {
    await copy.close();
  }
});

Deno.test("the service export makes relative paths absolute and keeps `~` and references", async () => {
  const config = {
    llms: [DEMO_LLM],
    mcpServers: [{ ...everyServer()[1], cwd: "servers/files" }],
    skills: [
      { id: "local", path: "skills/local" },
      { id: "home", path: "~/skills/home" },
    ],
    workspaces: [{ id: "w", name: "W", mcpServerIds: ["files"], skillIds: ["local", "home"] }],
  };
  const t = await startService({ config });
  try {
    const { code, notes } = await exported(t, "service", "w");
    const folder = dirname(t.service.config.path);
    const copy = JSON.parse(code);
    assert.deepEqual(copy.skills.map((skill: Json) => skill.path), [
      join(folder, "skills/local"),
      "~/skills/home",
    ]);
    assert.equal(copy.mcpServers[0].cwd, join(folder, "servers/files"));
    assert.deepEqual(copy.mcpServers[0].env, {
      GITHUB_TOKEN: "env:GITHUB_TOKEN",
      DEBUG: "env:FILES_DEBUG",
    });
    assert.deepEqual(copy.llms.map((llm: Json) => llm.id), ["demo"]);
    assert.match(notes[0], /first profile, demo/);
    assert.match(copy.$comment, /set FILES_API_KEY, FILES_TOKEN, GITHUB_TOKEN in the environment/);
    assert.deepEqual(copy.mcpServers[0].args.slice(3), [
      "--api-key",
      "${FILES_API_KEY}",
      "--token=${FILES_TOKEN}",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("the AI SDK versions exports pin are the ones Lass runs (deno.json)", async () => {
  const denoJson = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  const imports = denoJson.imports as Record<string, string>;
  let compared = 0;
  for (const [name, version] of Object.entries(PINNED_VERSIONS)) {
    const specifier = imports[name];
    if (specifier === undefined) continue;
    assert.equal(specifier, `npm:${name}@${version}`, name);
    compared++;
  }
  assert.ok(compared >= 8, "ai, the six providers and zod are compared");
});
