/** The `mcp-json` export: the workspace's tool servers as a Claude Code `.mcp.json` (`{"mcpServers": {...}}`). */
import type { ExportResult } from "../../wire/export.ts";
import { braceNotation, EnvVars, type Piece } from "./_env.ts";
import { type ExportSource, findWorkspace, planServers, type ServerPlan } from "./_plan.ts";

/** One entry of `mcpServers`: stdio `command/args/env/cwd`, remote `type/url/headers`. */
function entryOf(server: ServerPlan): Record<string, unknown> {
  const { connection } = server;
  const map = (pairs: [string, Piece[]][]) =>
    Object.fromEntries(pairs.map(([name, value]) => [name, braceNotation(value)]));
  if (connection.transport === "stdio") {
    return {
      type: "stdio",
      command: braceNotation(connection.command),
      args: connection.args.map(braceNotation),
      ...(connection.env.length > 0 && { env: map(connection.env) }),
      ...(connection.cwd && { cwd: braceNotation(connection.cwd) }),
    };
  }
  return {
    type: connection.transport,
    url: braceNotation(connection.url),
    ...(connection.headers.length > 0 && { headers: map(connection.headers) }),
  };
}

/**
 * Claude Code's permission rules that match Lass's tool settings: tools that run without asking
 * are allowed, disabled tools denied (Claude Code asks before every MCP tool by default).
 */
function permissionNote(servers: ServerPlan[]): string | undefined {
  const allow: string[] = [];
  const deny: string[] = [];
  for (const { record, approval, disabledTools } of servers) {
    const rule = (tool?: string) =>
      tool === undefined ? `mcp__${record.id}` : `mcp__${record.id}__${tool}`;
    const tools = Object.entries(approval.tools);
    if (approval.default === "auto" && tools.every(([, mode]) => mode === "auto")) {
      allow.push(rule());
    } else {
      allow.push(...tools.filter(([, mode]) => mode === "auto").map(([tool]) => rule(tool)));
    }
    deny.push(...disabledTools.map(rule));
  }
  if (allow.length === 0 && deny.length === 0) return undefined;
  const rules = [
    ...(allow.length ? [`"allow": ${JSON.stringify(allow)}`] : []),
    ...(deny.length ? [`"deny": ${JSON.stringify(deny)}`] : []),
  ];
  return "To run and hide tools as Lass does, put these permissions in Claude Code's " +
    `.claude/settings.json: {"permissions": {${rules.join(", ")}}}.`;
}

/** Generates the `.mcp.json` of a workspace: its tool servers, secrets as `${NAME}`. */
export function generateMcpJson(source: ExportSource, workspaceId: string): ExportResult {
  const workspace = findWorkspace(source.config, workspaceId);
  const vars = new EnvVars();
  const notes: string[] = [
    "A .mcp.json holds only tool servers: the model, system prompt, skills and max steps of " +
    "the workspace are not part of it.",
  ];
  const servers = planServers(source, workspace, vars);
  const mcpServers = Object.fromEntries(
    servers.map((server) => [server.record.id, entryOf(server)]),
  );
  const permissions = permissionNote(servers);
  if (permissions) notes.push(permissions);
  return {
    code: JSON.stringify({ mcpServers }, null, 2) + "\n",
    filename: ".mcp.json",
    dependencies: {},
    env: vars.list(),
    notes,
  };
}
