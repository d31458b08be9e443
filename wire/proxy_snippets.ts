/**
 * "Use from your client": the config snippets that point an MCP client at Lass's proxy, over HTTP
 * (`/mcp/:id`) and over stdio (`lass proxy <id>`), in the formats of the clients Lass imports.
 */

/** Where a client reaches a server through Lass. */
export interface ProxyAddress {
  serverId: string;
  /** `http://127.0.0.1:7420/mcp/<id>` */
  url: string;
  /** The service token the HTTP endpoint needs. */
  token: string;
  /** The command line of `lass proxy <id>` (program first). */
  command: string[];
}

/** One client's snippets: for the HTTP endpoint and for the stdio command (either may be absent). */
export interface ClientSnippets {
  client: string;
  /** Where the snippet goes. */
  where: string;
  http?: string;
  stdio: string;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A shell word, quoted when it needs to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The snippets of Claude Desktop, Claude Code, Cursor and VS Code for one server. */
export function proxySnippets(address: ProxyAddress): ClientSnippets[] {
  const { serverId: id, url, token, command } = address;
  const [program, ...args] = command;
  const bearer = `Bearer ${token}`;
  return [
    {
      client: "Claude Desktop",
      where: "claude_desktop_config.json",
      stdio: json({ mcpServers: { [id]: { command: program, args } } }),
    },
    {
      client: "Claude Code",
      where: "a terminal",
      http: `claude mcp add --transport http ${shellWord(id)} ${shellWord(url)} --header ${
        shellWord(`Authorization: ${bearer}`)
      }`,
      stdio: `claude mcp add ${shellWord(id)} -- ${command.map(shellWord).join(" ")}`,
    },
    {
      client: "Cursor",
      where: ".cursor/mcp.json",
      http: json({ mcpServers: { [id]: { url, headers: { Authorization: bearer } } } }),
      stdio: json({ mcpServers: { [id]: { command: program, args } } }),
    },
    {
      client: "VS Code",
      where: ".vscode/mcp.json",
      http: json({ servers: { [id]: { type: "http", url, headers: { Authorization: bearer } } } }),
      stdio: json({ servers: { [id]: { type: "stdio", command: program, args } } }),
    },
  ];
}
