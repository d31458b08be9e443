/** `importClientConfig`: one real config per client, detection, ids, placeholders, errors. */
import assert from "node:assert/strict";
import { McpServerSchema } from "../../wire/config/mcp_server_schema.ts";
import { LassError } from "../../core/errors.ts";
import {
  IMPORT_FORMATS,
  importClientConfig,
  type ImportOptions,
} from "../../core/mcp/import/import.ts";
import { type ImportFormat, type ImportResult } from "../../wire/tool_servers.ts";
import { type Json, post, startService } from "../_helpers.ts";

function fixture(name: string): string {
  return Deno.readTextFileSync(new URL(`../fixtures/import/${name}`, import.meta.url));
}

/** Imports and checks that every record is valid against the config schema. */
function imported(input: string | Record<string, unknown>, options: ImportOptions = {}) {
  const result = importClientConfig(input, options);
  for (const server of result.servers) {
    const checked = McpServerSchema.safeParse(server);
    assert.ok(checked.success, `${server.id}: ${checked.error?.message}`);
  }
  return result;
}

/** The format, records and warnings of a fixture (literal-secret warnings have their own tests). */
function assertImports(
  name: string,
  expected: Pick<ImportResult, "format" | "servers" | "warnings">,
): void {
  const { format, servers, warnings, secrets } = imported(fixture(name));
  const aboutSecrets = new Set(secrets.map((secret) => secret.warning));
  const others = warnings.filter((warning) => !aboutSecrets.has(warning));
  assert.deepEqual({ format, servers, warnings: others }, expected);
}

/** The LassError an import throws. */
function rejection(input: string | Record<string, unknown>, options: ImportOptions = {}) {
  try {
    importClientConfig(input, options);
  } catch (error) {
    assert.ok(error instanceof LassError);
    assert.equal(error.code, "invalid-request");
    assert.equal(error.details?.length, 1);
    assert.equal(error.details[0].path, "json");
    return { message: error.message, detail: error.details[0].message };
  }
  assert.fail("the config was imported");
}

Deno.test("a Claude Desktop config imports its stdio servers and points out mcp-remote", () => {
  assertImports("claude_desktop_config.json", {
    format: "claude-desktop",
    servers: [
      {
        id: "filesystem",
        name: "filesystem",
        transport: "stdio",
        command: "npx",
        args: [
          "-y",
          "@modelcontextprotocol/server-filesystem",
          "/Users/ana/Desktop",
          "/Users/ana/Downloads",
        ],
      },
      {
        id: "github",
        name: "github",
        transport: "stdio",
        command: "docker",
        args: [
          "run",
          "-i",
          "--rm",
          "-e",
          "GITHUB_PERSONAL_ACCESS_TOKEN",
          "ghcr.io/github/github-mcp-server",
        ],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: "<YOUR_TOKEN>" },
      },
      {
        id: "brave-search",
        name: "Brave Search",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-brave-search"],
        env: { BRAVE_API_KEY: "BSA-example-key" },
      },
      {
        id: "linear",
        name: "linear",
        transport: "stdio",
        command: "npx",
        args: ["-y", "mcp-remote", "https://mcp.linear.app/sse"],
      },
    ],
    warnings: [
      "linear: it runs mcp-remote for https://mcp.linear.app/sse; " +
      "consider importing that URL as an http server",
    ],
  });
});

Deno.test("a Claude Code .mcp.json keeps ${VAR} and drops ${VAR:-default} defaults with a warning", () => {
  assertImports("claude_code.mcp.json", {
    format: "claude-code",
    servers: [
      { id: "sentry", name: "sentry", transport: "http", url: "https://mcp.sentry.dev/mcp" },
      {
        id: "api-server",
        name: "api-server",
        transport: "http",
        url: "${API_BASE_URL}/mcp",
        headers: { Authorization: "Bearer ${API_KEY}" },
      },
      { id: "asana", name: "asana", transport: "sse", url: "https://mcp.asana.com/sse" },
      {
        id: "airtable",
        name: "airtable",
        transport: "stdio",
        command: "npx",
        args: ["-y", "airtable-mcp-server"],
        env: { AIRTABLE_API_KEY: "${AIRTABLE_API_KEY}" },
      },
      {
        id: "local-db",
        name: "local-db",
        transport: "stdio",
        command: "${CLAUDE_PROJECT_DIR}/bin/db-server",
        args: ["--config", "${DB_CONFIG}"],
      },
    ],
    warnings: [
      'api-server: ${API_BASE_URL:-https://api.example.com} lost its default "https://api.example.com"; ' +
      "it is now ${API_BASE_URL}",
      'local-db: ${DB_CONFIG:-./db.json} lost its default "./db.json"; it is now ${DB_CONFIG}',
    ],
  });
});

Deno.test("a Cursor mcp.json guesses remote transports and maps ${env:X} to ${X}", () => {
  assertImports("cursor_mcp.json", {
    format: "cursor",
    servers: [
      {
        id: "context7",
        name: "context7",
        transport: "http",
        url: "https://mcp.context7.com/mcp",
        headers: { CONTEXT7_API_KEY: "${CONTEXT7_API_KEY}" },
      },
      {
        id: "postgres",
        name: "postgres",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-postgres", "postgresql://localhost/mydb"],
      },
      {
        id: "browser-events",
        name: "browser-events",
        transport: "sse",
        url: "http://localhost:8931/sse",
      },
      {
        id: "notes",
        name: "notes",
        transport: "stdio",
        command: "node",
        args: ["${workspaceFolder}/tools/notes-server.js"],
        env: { NOTES_DIR: "${userHome}/notes" },
      },
    ],
    warnings: [
      "context7: no transport type; guessed http (Streamable HTTP)",
      "postgres: envFile .env is not read; copy its variables into env",
      "browser-events: no transport type; guessed sse from the /sse URL path",
      "notes: ${workspaceFolder} is an editor variable; Lass reads workspaceFolder from its environment",
      "notes: ${userHome} is an editor variable; Lass reads userHome from its environment",
    ],
  });
});

Deno.test("a VS Code mcp.json with comments turns ${input:id} into a variable, naming the prompt", () => {
  assertImports("vscode_mcp.json", {
    format: "vscode",
    servers: [
      {
        id: "perplexity",
        name: "Perplexity",
        transport: "stdio",
        command: "npx",
        args: ["-y", "server-perplexity-ask"],
        env: { PERPLEXITY_API_KEY: "${PERPLEXITY_KEY}" },
      },
      {
        id: "github",
        name: "github",
        transport: "http",
        url: "https://api.githubcopilot.com/mcp/",
        headers: { Authorization: "Bearer ${GH_TOKEN}" },
      },
      {
        id: "fetch",
        name: "fetch",
        transport: "stdio",
        command: "uvx",
        args: ["mcp-server-fetch"],
      },
      {
        id: "memory",
        name: "memory",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-memory"],
        env: { MEMORY_FILE_PATH: "${workspaceFolder}/.vscode/memory.jsonl" },
      },
    ],
    warnings: [
      'Perplexity: ${input:perplexity-key} (the prompt "Perplexity API Key") became ' +
      "${PERPLEXITY_KEY}; set PERPLEXITY_KEY for Lass",
      'github: ${input:gh-token} (the prompt "GitHub Personal Access Token") became ${GH_TOKEN}; ' +
      "set GH_TOKEN for Lass",
      "memory: envFile ${workspaceFolder}/.env is not read; copy its variables into env",
      "memory: ${workspaceFolder} is an editor variable; Lass reads workspaceFolder from its environment",
    ],
  });
});

Deno.test("a Windsurf config reads serverUrl, disabledTools and disabled servers", () => {
  assertImports("windsurf_mcp_config.json", {
    format: "windsurf",
    servers: [
      {
        id: "github",
        name: "github",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-github"],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${GITHUB_TOKEN}" },
        disabledTools: ["delete_repository", "fork_repository"],
      },
      {
        id: "figma",
        name: "figma",
        transport: "http",
        url: "https://mcp.figma.com/mcp",
        headers: { Authorization: "Bearer ${FIGMA_TOKEN}" },
      },
      {
        id: "stripe-events",
        name: "stripe-events",
        transport: "sse",
        url: "https://events.example.com/sse",
      },
      {
        id: "puppeteer",
        name: "puppeteer",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-puppeteer"],
      },
    ],
    warnings: [
      "stripe-events: no transport type; guessed sse from the /sse URL path",
      "puppeteer: it is disabled in the source config (disabled: true); imported anyway",
    ],
  });
});

Deno.test("a Zed settings.json (comments, trailing commas) reads both command shapes", () => {
  assertImports("zed_settings.json", {
    format: "zed",
    servers: [
      {
        id: "postgres",
        name: "postgres",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-postgres", "postgresql://localhost/dev"],
      },
      {
        id: "legacy-git",
        name: "legacy-git",
        transport: "stdio",
        command: "uvx",
        args: ["mcp-server-git", "--repository", "."],
        env: { GIT_AUTHOR_NAME: "Ana" },
      },
      {
        id: "linear",
        name: "linear",
        transport: "http",
        url: "https://mcp.linear.app/mcp",
        headers: { Authorization: "Bearer ${LINEAR_TOKEN}" },
      },
      {
        id: "sqlite",
        name: "sqlite",
        transport: "stdio",
        command: "uvx",
        args: ["mcp-server-sqlite", "--db-path", "./dev.db"],
      },
    ],
    warnings: [
      "mcp-server-github: not imported: it comes from a Zed extension, which Lass cannot run",
      "linear: no transport type; guessed http (Streamable HTTP)",
      "sqlite: it is disabled in the source config (enabled: false); imported anyway",
    ],
  });
});

Deno.test("a Cline config maps autoApprove and alwaysAllow to auto approval", () => {
  assertImports("cline_mcp_settings.json", {
    format: "cline",
    servers: [
      {
        id: "github-com-modelcontextprotocol-servers-tree-main-src-brave-sear",
        name: "github.com/modelcontextprotocol/servers/tree/main/src/brave-search",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-brave-search"],
        env: { BRAVE_API_KEY: "BSA-example-key" },
        approval: { tools: { brave_web_search: "auto" } },
      },
      {
        id: "weather",
        name: "weather",
        transport: "stdio",
        command: "node",
        args: ["/Users/ana/Documents/Cline/MCP/weather-server/build/index.js"],
        cwd: "/Users/ana/Documents/Cline/MCP/weather-server",
      },
      {
        id: "remote-docs",
        name: "remote-docs",
        transport: "http",
        url: "https://docs.example.com/mcp",
        headers: { "X-Api-Key": "docs-key" },
        approval: { tools: { search_docs: "auto", read_page: "auto" } },
      },
      {
        id: "legacy-events",
        name: "legacy-events",
        transport: "sse",
        url: "https://legacy.example.com/events",
        approval: { tools: { ping: "auto" } },
      },
    ],
    warnings: ["weather: it is disabled in the source config (disabled: true); imported anyway"],
  });
});

Deno.test("a Continue config.yaml reads its mcpServers list and secrets", () => {
  assertImports("continue_config.yaml", {
    format: "continue",
    servers: [
      {
        id: "playwright",
        name: "Playwright",
        transport: "stdio",
        command: "npx",
        args: ["@playwright/mcp@latest"],
      },
      {
        id: "sqlite",
        name: "SQLite",
        transport: "stdio",
        command: "uvx",
        args: ["mcp-server-sqlite", "--db-path", "/Users/ana/data/app.db"],
        env: { SQLITE_TIMEOUT: "30" },
        cwd: "/Users/ana/data",
      },
      {
        id: "github",
        name: "GitHub",
        transport: "http",
        url: "https://api.githubcopilot.com/mcp/",
        headers: { Authorization: "Bearer ${GITHUB_TOKEN}" },
      },
      {
        id: "legacy-events",
        name: "Legacy Events",
        transport: "sse",
        url: "https://events.example.com/sse",
      },
    ],
    warnings: [
      "GitHub: Continue secret ${{ secrets.GITHUB_TOKEN }} became ${GITHUB_TOKEN}; " +
      "set GITHUB_TOKEN for Lass",
      "mcpServers[4]: not imported: it uses the hub block anthropic/memory-mcp; import that file",
    ],
  });
});

Deno.test("a goose config.yaml imports MCP extensions and skips builtin ones", () => {
  assertImports("goose_config.yaml", {
    format: "goose",
    servers: [
      {
        id: "github",
        name: "github",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-github"],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${GITHUB_PERSONAL_ACCESS_TOKEN}" },
      },
      {
        id: "fetch",
        name: "fetch",
        transport: "stdio",
        command: "uvx",
        args: ["mcp-server-fetch"],
        env: { FETCH_USER_AGENT: "goose/1.0" },
      },
      {
        id: "remote_docs",
        name: "remote_docs",
        transport: "http",
        url: "https://docs.example.com/mcp",
        headers: { "X-Api-Key": "docs-key" },
      },
      { id: "events", name: "events", transport: "sse", url: "https://events.example.com/sse" },
    ],
    warnings: [
      "developer: not imported: it is a goose builtin extension, not an MCP server",
      "fetch: it is disabled in the source config (enabled: false); imported anyway",
      "fetch: available_tools allows only fetch; Lass has no allow-list, so all tools are offered",
      "events: envs and env_keys do not apply to a remote server in Lass; they were left out",
    ],
  });
});

Deno.test("a Codex config.toml maps bearer_token_env_var, env headers and tool lists", () => {
  assertImports("codex_config.toml", {
    format: "codex",
    servers: [
      {
        id: "docs",
        name: "docs",
        transport: "stdio",
        command: "npx",
        args: ["-y", "mcp-server"],
        env: { HOME: "${HOME}", API_KEY: "v" },
        timeoutMs: 20_000,
      },
      {
        id: "figma",
        name: "figma",
        transport: "http",
        url: "https://mcp.figma.com/mcp",
        headers: {
          "X-Figma-Region": "us-east-1",
          "X-Team-Id": "${FIGMA_TEAM_ID}",
          authorization: "Bearer ${FIGMA_TOKEN}",
        },
      },
      {
        id: "github",
        name: "github",
        transport: "http",
        url: "https://api.githubcopilot.com/mcp/",
        disabledTools: ["delete_file"],
        oauth: { scopes: ["repo", "read:org"] },
      },
      {
        id: "chrome-devtools",
        name: "chrome devtools",
        transport: "stdio",
        command: "npx",
        args: ["chrome-devtools-mcp@latest"],
      },
    ],
    warnings: [
      "figma: enabled_tools allows only get_code, get_image; Lass has no allow-list, " +
      "so all tools are offered",
      "github: it is disabled in the source config (enabled = false); imported anyway",
      "chrome devtools: its startup timeout of 1000000 ms is outside Lass's 100-600000 ms; " +
      "the default is used",
    ],
  });
});

Deno.test("a Gemini CLI settings.json tells httpUrl from url and maps trust and excludeTools", () => {
  assertImports("gemini_settings.json", {
    format: "gemini",
    servers: [
      {
        id: "pythontools",
        name: "pythonTools",
        transport: "stdio",
        command: "python",
        args: ["-m", "my_mcp_server", "--port", "8080"],
        env: { DATABASE_URL: "${DB_CONNECTION_STRING}", API_KEY: "${EXTERNAL_API_KEY}" },
        cwd: "./mcp-servers/python",
        disabledTools: ["delete_all"],
      },
      {
        id: "httpserver",
        name: "httpServer",
        transport: "http",
        url: "http://localhost:3000/mcp",
        headers: { Authorization: "Bearer your-api-token" },
      },
      { id: "sseserver", name: "sseServer", transport: "sse", url: "http://localhost:8080/sse" },
      {
        id: "trustedlocal",
        name: "trustedLocal",
        transport: "stdio",
        command: "node",
        args: ["dist/server.js"],
        approval: { default: "auto" },
      },
    ],
    warnings: [
      "httpServer: includeTools allows only search, summarize; Lass has no allow-list, " +
      "so all tools are offered",
      "sseServer: it is disabled in the source config (listed in mcp.excluded); imported anyway",
    ],
  });
});

Deno.test("the format is detected from the root key and the fields only one client writes", () => {
  const stdio = { command: "npx" };
  const cases: [Record<string, unknown>, ImportFormat][] = [
    [{ mcpServers: { a: stdio } }, "claude-desktop"],
    [{ mcpServers: { a: { type: "stdio", command: "npx" } } }, "claude-code"],
    [{ mcpServers: { a: { url: "https://a.example.com/mcp" } } }, "cursor"],
    [{ servers: { a: stdio } }, "vscode"],
    [{ mcp: { servers: { a: stdio } } }, "vscode"],
    [{ mcpServers: { a: { serverUrl: "https://a.example.com/mcp" } } }, "windsurf"],
    [{ context_servers: { a: stdio } }, "zed"],
    [{ mcpServers: { a: { ...stdio, autoApprove: [] } } }, "cline"],
    [{ mcpServers: { a: { type: "streamableHttp", url: "https://a.example.com" } } }, "cline"],
    [{ mcpServers: [{ name: "a", ...stdio }] }, "continue"],
    [{ name: "a", ...stdio }, "continue"],
    [{ extensions: { a: { type: "stdio", cmd: "npx" } } }, "goose"],
    [{ mcp_servers: { a: stdio } }, "codex"],
    [{ mcpServers: { a: { httpUrl: "https://a.example.com/mcp" } } }, "gemini"],
    [{ mcpServers: { a: { ...stdio, trust: true } } }, "gemini"],
    [{ name: "io.example/a", packages: [] }, "server-json"],
    [{ server: { name: "io.example/a", remotes: [] }, _meta: {} }, "server-json"],
  ];
  for (const [config, format] of cases) {
    assert.equal(imported(config).format, format, JSON.stringify(config));
    assert.equal(imported(JSON.stringify(config)).format, format, JSON.stringify(config));
  }
  assert.deepEqual(new Set(cases.map(([, format]) => format)), new Set(IMPORT_FORMATS));
});

Deno.test("a forced format picks the parser and the reading of url", () => {
  const config = { mcpServers: { s: { url: "https://a.example.com/events" } } };
  assert.deepEqual(imported(config, { format: "gemini" }), {
    format: "gemini",
    sameShape: [],
    servers: [{ id: "s", name: "s", transport: "sse", url: "https://a.example.com/events" }],
    warnings: [],
    secrets: [],
  });
  assert.deepEqual(imported(config).servers[0].transport, "http");
  const asCursor = imported(fixture("gemini_settings.json"), { format: "cursor" });
  assert.deepEqual(asCursor.servers.map((server) => `${server.id}:${server.transport}`), [
    "pythontools:stdio",
    "sseserver:sse",
    "trustedlocal:stdio",
  ]);
  assert.deepEqual(asCursor.warnings, [
    "httpServer: not imported: it has neither a command nor a URL",
    "sseServer: no transport type; guessed sse from the /sse URL path",
  ]);
  assert.equal(imported(fixture("continue_config.yaml"), { format: "continue" }).servers.length, 4);
  assert.deepEqual(
    rejection(JSON.stringify(config), { format: "codex" }).message,
    "The config is not valid TOML.",
  );
  assert.deepEqual(rejection(config, { format: "zed" }), {
    message: "The config has no context_servers, where the zed format keeps its servers.",
    detail: "has no context_servers",
  });
});

Deno.test("ids are slugs of the keys, unique against existing ids and each other", () => {
  const long = "a".repeat(70);
  const result = imported({
    mcpServers: {
      GitHub: { command: "gh" },
      "git hub!": { command: "gh" },
      github: { command: "gh" },
      "Café Ünïcode": { command: "c" },
      "--- !!!": { command: "x" },
      [long]: { command: "l" },
      [`${long}b`]: { command: "l" },
      Fetch: { command: "f" },
    },
  }, { existingIds: ["github", "GitHub-2", "Fetch"] });
  assert.deepEqual(
    result.servers.map((server) => [server.id, server.name]),
    [
      ["github-3", "GitHub"],
      ["git-hub", "git hub!"],
      ["github-4", "github"],
      ["cafe-unicode", "Café Ünïcode"],
      ["server", "--- !!!"],
      ["a".repeat(64), long],
      [`${"a".repeat(62)}-2`, `${long}b`],
      ["fetch-2", "Fetch"],
    ],
  );
  assert.deepEqual(result.warnings, []);
});

Deno.test("placeholders are kept as ${VAR}; lost defaults, prompts and unknown forms are warned about", () => {
  const result = imported({
    inputs: [{ type: "promptString", id: "api-key", description: "The API key" }],
    servers: {
      s: {
        type: "stdio",
        command: "${HOME}/bin/server",
        args: [
          "--key",
          "${input:api-key}",
          "--region",
          "${REGION:-eu}",
          "${input:other}",
          "${PORT-80}",
        ],
        env: { A: "${env:A_KEY}", B: "x-${B}-y", C: "${command:pickFile}", D: "$NOT_A_REF" },
        cwd: "${workspaceFolder}",
      },
    },
  });
  assert.deepEqual(result.servers, [{
    id: "s",
    name: "s",
    transport: "stdio",
    command: "${HOME}/bin/server",
    args: ["--key", "${API_KEY}", "--region", "${REGION}", "${OTHER}", "${PORT}"],
    env: { A: "${A_KEY}", B: "x-${B}-y", C: "${command:pickFile}", D: "$NOT_A_REF" },
    cwd: "${workspaceFolder}",
  }]);
  assert.deepEqual(result.warnings, [
    's: ${input:api-key} (the prompt "The API key") became ${API_KEY}; set API_KEY for Lass',
    's: ${REGION:-eu} lost its default "eu"; it is now ${REGION}',
    "s: ${input:other} (an undeclared input) became ${OTHER}; set OTHER for Lass",
    's: ${PORT-80} lost its default "80"; it is now ${PORT}',
    "s: ${command:pickFile} is not a variable Lass knows; it stays as literal text",
    "s: ${workspaceFolder} is an editor variable; Lass reads workspaceFolder from its environment",
  ]);
  const codex = imported(
    '[mcp_servers.api]\nurl = "https://a.example.com/mcp"\nbearer_token_env_var = "API_TOKEN"\n',
  );
  assert.deepEqual(codex.servers[0].headers, { authorization: "Bearer ${API_TOKEN}" });
});

Deno.test("a server that cannot be made valid becomes a warning and the others still import", () => {
  const result = imported({
    mcpServers: {
      ok: { command: "npx" },
      ftp: { type: "http", url: "ftp://files.example.com" },
      ws: { type: "websocket", url: "wss://a.example.com" },
      nothing: { description: "no command, no url" },
      argsText: { command: "npx", args: "-y server" },
      notAnObject: "npx server",
      "": { command: "npx" },
      spaced: { command: "npx -y some-server" },
    },
  });
  assert.deepEqual(result.servers, [
    { id: "ok", name: "ok", transport: "stdio", command: "npx" },
    { id: "spaced", name: "spaced", transport: "stdio", command: "npx -y some-server" },
  ]);
  assert.deepEqual(result.warnings, [
    "ftp: not imported: url must be an http or https URL (or an env reference)",
    'ws: not imported: type "websocket" is not a transport Lass has (stdio, http or sse)',
    "nothing: not imported: it has neither a command nor a URL",
    "argsText: not imported: args must be a list of strings",
    "notAnObject: not imported: it is not an object",
    ": not imported: name must not be empty",
    "spaced: command has spaces and no args; it probably ran through a shell, so split it",
  ]);
});

Deno.test("JSONC comments and trailing commas are dropped, but not inside strings", () => {
  const text = `{
    // a comment with "quotes"
    "mcpServers": { /* block */
      "s": { "command": "say", "args": ["// not a comment", "/* nor this */", "a,]", "\\"q\\"",], },
    },
  }`;
  assert.deepEqual(imported(text).servers[0].args, [
    "// not a comment",
    "/* nor this */",
    "a,]",
    '"q"',
  ]);
});

Deno.test("an empty server map imports nothing, with a warning", () => {
  assert.deepEqual(imported('{"mcpServers": {}}'), {
    format: "claude-desktop",
    sameShape: ["claude-code", "cursor", "windsurf", "cline", "gemini"],
    servers: [],
    warnings: ["the config lists no servers"],
    secrets: [],
  });
});

Deno.test("malformed configs are rejected as invalid-request with a reason at json", () => {
  assert.deepEqual(rejection("this is not a config"), {
    message: "The config is not valid JSON, YAML or TOML.",
    detail: `JSON: Unexpected token 'h', "this is not a config" is not valid JSON`,
  });
  assert.deepEqual(rejection('[{"command": "npx"}]'), {
    message:
      'The config is a list; expected an object holding the servers, such as {"mcpServers": {}}.',
    detail: "must be an object, not an array",
  });
  const noMap = {
    message: "The config has no MCP server map: expected mcpServers, servers, " +
      "context_servers, extensions or mcp_servers, or a server.json's packages or remotes.",
    detail: "has no recognisable server map",
  };
  assert.deepEqual(rejection('{"theme": "dark", "ui_font_size": 16}'), noMap);
  assert.deepEqual(rejection({ theme: "dark" }), noMap);
  assert.deepEqual(rejection('[mcp_servers.docs]\ncommand = "npx\nargs = ["a"]\n'), {
    message: "The config is not valid JSON, YAML or TOML.",
    detail: "TOML: Invalid TOML document: control characters are not allowed in strings",
  });
  assert.deepEqual(rejection("  \n"), { message: "The config is empty.", detail: "is empty" });
  assert.match(rejection("mcpServers:\n  - name: x\n   bad: [").detail, /^YAML: /);
  assert.deepEqual(
    rejection([] as unknown as Record<string, unknown>).detail,
    "must be an object, not an array",
  );
});

Deno.test("a Claude Desktop file is named Claude Desktop, and the clients of the same shape are listed", () => {
  // A remote entry alone would read as Cursor; Claude Desktop's own top-level fields decide.
  const desktop = {
    globalShortcut: "Ctrl+Space",
    mcpServers: { notes: { url: "https://notes.example.com/mcp" } },
  };
  const named = imported(desktop);
  assert.equal(named.format, "claude-desktop");
  assert.ok(named.sameShape.includes("cursor"), "a Cursor file of this shape reads the same");
  const plain = imported(fixture("claude_desktop_config.json"));
  assert.equal(plain.format, "claude-desktop");
  assert.deepEqual(plain.sameShape, ["claude-code", "cursor", "windsurf", "cline", "gemini"]);
  // Fields only one client writes make the reading differ: nothing reads the same.
  assert.deepEqual(imported(fixture("cursor_mcp.json")).sameShape, []);
  assert.deepEqual(
    imported(fixture("claude_desktop_config.json"), { format: "cursor" }).sameShape,
    [],
  );
});

Deno.test("literal secrets in env and headers are warned about, each with an env reference", () => {
  const config = {
    mcpServers: {
      search: {
        command: "npx",
        args: ["-y", "search-server"],
        env: {
          SEARCH_API_KEY: "sk-live-123",
          DEBUG: "1",
          HOME_DIR: "/home/ana",
          GITHUB_TOKEN: "${GITHUB_TOKEN}",
          ENDPOINT_SECRET: "env:ENDPOINT_SECRET",
        },
      },
      other: { command: "npx", env: { SEARCH_API_KEY: "sk-other-456", NOTE: "ghp_abcdef" } },
      "Remote Docs": {
        type: "http",
        url: "https://docs.example.com/mcp",
        headers: { Authorization: "Bearer abc123", "X-Api-Key": "k-1", Accept: "text/plain" },
      },
    },
  };
  const result = imported(config);
  assert.deepEqual(result.secrets.map(({ warning: _, ...secret }) => secret), [
    {
      serverId: "search",
      field: "env",
      key: "SEARCH_API_KEY",
      variable: "SEARCH_API_KEY",
      reference: "env:SEARCH_API_KEY",
    },
    {
      serverId: "other",
      field: "env",
      key: "SEARCH_API_KEY",
      variable: "OTHER_SEARCH_API_KEY",
      reference: "env:OTHER_SEARCH_API_KEY",
    },
    { serverId: "other", field: "env", key: "NOTE", variable: "NOTE", reference: "env:NOTE" },
    {
      serverId: "remote-docs",
      field: "headers",
      key: "Authorization",
      variable: "REMOTE_DOCS_TOKEN",
      reference: "Bearer ${REMOTE_DOCS_TOKEN}",
    },
    {
      serverId: "remote-docs",
      field: "headers",
      key: "X-Api-Key",
      variable: "REMOTE_DOCS_X_API_KEY",
      reference: "${REMOTE_DOCS_X_API_KEY}",
    },
  ]);
  // The records keep what the file said; the warnings say what would be copied.
  assert.equal(result.servers[0].env?.SEARCH_API_KEY, "sk-live-123");
  assert.deepEqual(result.warnings, result.secrets.map((secret) => secret.warning));
  assert.equal(
    result.warnings[0],
    "search: env SEARCH_API_KEY holds a literal secret, which would be copied into the config; " +
      '"env:SEARCH_API_KEY" reads it from SEARCH_API_KEY in Lass\'s environment instead',
  );
  assert.match(result.warnings[3], /^Remote Docs: header Authorization holds a literal secret/);
  // Each reference is a valid value of its field.
  for (const secret of result.secrets) {
    const server = result.servers.find((record) => record.id === secret.serverId)!;
    const record = { ...server, [secret.field]: { [secret.key]: secret.reference } };
    assert.ok(McpServerSchema.safeParse(record).success, JSON.stringify(record));
  }
});

Deno.test("POST /api/mcp/import answers the same-shape formats and the literal secrets", async () => {
  const t = await startService();
  try {
    const file = fixture("claude_desktop_config.json");
    const { status, body } = await post(t, "/api/mcp/import", { json: file });
    assert.equal(status, 200);
    assert.equal(body.format, "claude-desktop");
    assert.deepEqual(body.sameShape, ["claude-code", "cursor", "windsurf", "cline", "gemini"]);
    assert.deepEqual(
      body.secrets.map((secret: Json) => [secret.serverId, secret.key, secret.reference]),
      [
        ["github", "GITHUB_PERSONAL_ACCESS_TOKEN", "env:GITHUB_PERSONAL_ACCESS_TOKEN"],
        ["brave-search", "BRAVE_API_KEY", "env:BRAVE_API_KEY"],
      ],
    );
    for (const secret of body.secrets) assert.ok(body.warnings.includes(secret.warning));
  } finally {
    await t.close();
  }
});

Deno.test("a registry server.json imports one record per package and remote, secrets as env references", () => {
  const { format, servers, warnings, secrets } = imported(fixture("server.json"));
  assert.equal(format, "server-json");
  assert.deepEqual(secrets, []);
  assert.deepEqual(servers, [
    {
      id: "toolbox-npm",
      name: "toolbox-npm",
      transport: "stdio",
      command: "npx",
      args: ["-y", "@example/toolbox@1.2.0", ".", "--mode", "local"],
      env: { TOOLBOX_TOKEN: "env:TOOLBOX_TOKEN" },
    },
    {
      id: "toolbox-pypi",
      name: "toolbox-pypi",
      transport: "stdio",
      command: "uvx",
      args: ["toolbox-mcp==1.2.0"],
      env: { LOG_LEVEL: "info" },
    },
    {
      id: "toolbox-oci",
      name: "toolbox-oci",
      transport: "stdio",
      command: "docker",
      args: ["run", "-i", "--rm", "-e", "TOOLBOX_TOKEN", "ghcr.io/example/toolbox:1.2.0"],
      env: { TOOLBOX_TOKEN: "env:TOOLBOX_TOKEN" },
    },
    {
      id: "toolbox-nuget",
      name: "toolbox-nuget",
      transport: "stdio",
      command: "dnx",
      args: ["Example.Toolbox@1.2.0", "--yes", "--", "serve"],
    },
    {
      id: "toolbox-streamable-http",
      name: "toolbox-streamable-http",
      transport: "http",
      url: "https://mcp.example.com/toolbox",
      headers: { "X-Api-Key": "env:TOOLBOX_X_API_KEY" },
    },
    {
      id: "toolbox-sse",
      name: "toolbox-sse",
      transport: "sse",
      url: "https://mcp.example.com/toolbox/sse",
    },
  ]);
  assert.deepEqual(warnings, [
    "toolbox-npm: set TOOLBOX_TOKEN in Lass's environment before connecting",
    "toolbox-oci: set TOOLBOX_TOKEN in Lass's environment before connecting",
    "toolbox-mcpb: not imported: https://github.com/example/toolbox/releases/download/v1.2.0/" +
    "toolbox.mcpb is an MCP bundle (mcpb), which Lass does not install or run: download it " +
    "(SHA-256 fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce), check its " +
    "hash, unpack it (npx @anthropic-ai/mcpb unpack <file> <folder>) and add the command its " +
    "manifest.json names as a stdio server",
    "toolbox-streamable-http: set TOOLBOX_X_API_KEY in Lass's environment before connecting",
  ]);
  const single = imported({
    server: {
      name: "io.example/solo",
      packages: [{ registryType: "npm", identifier: "solo", version: "1.0.0" }],
    },
  });
  assert.deepEqual(single.servers, [
    { id: "solo", name: "solo", transport: "stdio", command: "npx", args: ["-y", "solo@1.0.0"] },
  ]);
  assert.deepEqual(rejection({ name: 5, packages: [] }, { format: "server-json" }), {
    message: "The server.json is not valid.",
    detail: "name: Invalid input: expected string, received number",
  });
});
