/** Export test helpers: a config with every provider and transport kind, and a temp Deno project for generated code. */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { post, type TestService } from "./_helpers.ts";

/** Every literal secret of {@link everythingConfig} contains this; no export may. */
export const SECRET_MARK = "s3cr3t";

/** Tool servers of every transport, with literal secrets, references, disabled tools and approvals. */
export function everyServer(): Record<string, unknown>[] {
  return [
    { id: "demo", name: "Demo tools", transport: "stdio", command: "service:demo" },
    {
      id: "files",
      name: "Files",
      transport: "stdio",
      command: "npx",
      args: [
        "-y",
        "@modelcontextprotocol/server-filesystem",
        "${HOME}/notes",
        "--api-key",
        `${SECRET_MARK}-11`,
        `--token=${SECRET_MARK}-12`,
      ],
      env: { GITHUB_TOKEN: `gh-${SECRET_MARK}-1`, DEBUG: "env:FILES_DEBUG" },
      cwd: "servers/files",
      disabledTools: ["write_file"],
      approval: { default: "ask", tools: { read_file: "auto" } },
    },
    {
      id: "remote",
      name: "Remote",
      transport: "http",
      url: "https://mcp.example.com/mcp",
      headers: { Authorization: `Bearer ${SECRET_MARK}-2`, "X-Team": "env:TEAM_ID" },
      oauth: { clientId: "lass", clientSecret: `${SECRET_MARK}-3` },
    },
    {
      id: "legacy",
      name: "Legacy SSE",
      transport: "sse",
      url: `https://sse.example.com/sse?api_key=${SECRET_MARK}-4`,
      headers: { Authorization: "Bearer ${LEGACY_TOKEN}" },
    },
  ];
}

/** Model profiles of every provider kind (and API flavour), some with literal secrets. */
export function everyLlm(): Record<string, unknown>[] {
  return [
    {
      id: "demo",
      name: "Demo",
      provider: "compatible-api",
      model: "demo",
      baseURL: "service:demo",
    },
    {
      id: "openai",
      name: "OpenAI",
      provider: "hosted-a",
      model: "gpt-5-mini",
      apiKey: `sk-${SECRET_MARK}-5`,
      temperature: 0.3,
      maxOutputTokens: 500,
    },
    {
      id: "openai-chat",
      name: "OpenAI chat",
      provider: "hosted-a",
      model: "gpt-4.1",
      apiKey: "env:OPENAI_API_KEY",
      baseURL: "https://proxy.example.com/v1",
      useChatApi: true,
      headers: { "OpenAI-Organization": `org-${SECRET_MARK}-6` },
    },
    {
      id: "claude",
      name: "Claude",
      provider: "hosted-b",
      model: "claude-sonnet-4-5",
      baseURL: "https://api.anthropic.com/v1",
      headers: { "anthropic-beta": "env:ANTHROPIC_BETA" },
    },
    { id: "gemini", name: "Gemini", provider: "hosted-c", model: "gemini-2.5-flash" },
    {
      id: "gemini-proxy",
      name: "Gemini proxy",
      provider: "hosted-c",
      model: "gemini-2.5-pro",
      apiKey: `${SECRET_MARK}-7`,
      baseURL: "env:GEMINI_PROXY_URL",
    },
    {
      id: "azure",
      name: "Azure",
      provider: "cloud-d",
      model: "my-deployment",
      resourceName: "env:AZURE_RESOURCE_NAME",
    },
    {
      id: "azure-dated",
      name: "Azure dated",
      provider: "cloud-d",
      model: "my-deployment",
      baseURL: "https://res.openai.azure.com/openai",
      apiVersion: "2024-10-21",
      apiKey: `${SECRET_MARK}-8`,
    },
    { id: "ollama", name: "Ollama", provider: "local-e", model: "llama3.2", temperature: 0.1 },
    {
      id: "ollama-remote",
      name: "Ollama remote",
      provider: "local-e",
      model: "qwen3",
      baseURL: "http://gpu.example.com:11434/api",
      maxOutputTokens: 256,
      providerOptions: { ollama: { think: false } },
    },
    {
      id: "compatible",
      name: "Compatible",
      provider: "compatible-api",
      model: "mistral",
      baseURL: `https://user:${SECRET_MARK}-9@llm.example.com/v1`,
      apiKey: "${COMPATIBLE_KEY}",
    },
  ];
}

/** One workspace per model profile, each with every tool server and a skill, and a bare one. */
export function everythingConfig(): Record<string, unknown> {
  const llms = everyLlm();
  const servers = everyServer();
  return {
    llms,
    mcpServers: servers,
    skills: [{
      id: "notes",
      content: "---\nname: notes\ndescription: Take notes in Markdown\n---\nWrite `# Title` first.",
    }],
    agents: [{
      id: "helper",
      name: "Helper",
      protocol: "a2a",
      url: "http://127.0.0.1:9999",
      headers: { "x-api-key": `${SECRET_MARK}-10` },
    }],
    workspaces: [
      ...llms.map((llm, index) => ({
        id: `w-${llm.id}`,
        name: `Workspace ${llm.name}`,
        llmId: llm.id,
        mcpServerIds: servers.map((server) => server.id),
        skillIds: ["notes"],
        systemPrompt: "You are careful. Quote `code` and ${braces} literally.",
        maxSteps: 4 + index,
        ...(index === 1 && { requireApproval: true, agentId: "helper" }),
      })),
      {
        // No tools, no prompt, no skills: the code exports have no MCP part at all.
        id: "w-bare",
        name: "Bare",
        llmId: "ollama",
        generativeUi: false,
      },
    ],
    activeWorkspaceId: "w-demo",
  };
}

/** `POST /api/export`, expecting 200. */
export async function exported(
  t: TestService,
  target: string,
  workspaceId: string,
): Promise<
  {
    code: string;
    filename: string;
    dependencies: Record<string, string>;
    env: Json[];
    notes: string[];
  }
> {
  const { status, body } = await post(t, "/api/export", { target, workspaceId });
  if (status !== 200) throw new Error(`export ${target} ${workspaceId}: ${JSON.stringify(body)}`);
  return body;
}

// deno-lint-ignore no-explicit-any
type Json = any;

/**
 * A temp folder holding files and a deno.json whose import map pins the packages at the given
 * versions, as a user's project would after installing them.
 */
export async function tempProject(
  files: Record<string, string>,
  dependencies: Record<string, string>,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "lass-export-"));
  const imports: Record<string, string> = {};
  for (const [name, version] of Object.entries(dependencies)) {
    imports[name] = `npm:${name}@${version}`;
    imports[`${name}/`] = `npm:/${name}@${version}/`;
  }
  await writeFile(join(dir, "deno.json"), JSON.stringify({ imports }, null, 2));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

/** Runs Deno in a folder to its end, with piped output. */
export async function runDeno(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; stdin?: "null" | "piped" },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: options.cwd,
    env: { NO_COLOR: "1", ...options.env },
    stdin: options.stdin ?? "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/** The workspace ids of {@link everythingConfig}. */
export function everyWorkspaceId(): string[] {
  return (everythingConfig().workspaces as { id: string }[]).map((workspace) => workspace.id);
}
