/**
 * "Copy as…" for a tool call: the same call as a `curl` command against Lass's API, a `lass call`
 * command line, and MCP SDK client code through Lass's proxy (`/mcp/:id`). The token is never in
 * them: each reads it from `LASS_TOKEN`.
 */
import { useRef } from "preact/hooks";
import { CopyButton } from "../copy_button.tsx";

/** A text as one single-quoted shell word. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The three forms of a call of `tool` with `args` on server `serverId` of the Lass at `base`. */
export function callSnippets(
  base: string,
  serverId: string,
  tool: string,
  args: Record<string, unknown>,
): { label: string; text: string }[] {
  const path = `/api/mcp/${encodeURIComponent(serverId)}/call`;
  const json = JSON.stringify(args);
  return [
    {
      label: "curl",
      text: `curl -sS -X POST ${shellQuote(base + path)} \\
  -H "Authorization: Bearer $LASS_TOKEN" -H 'content-type: application/json' \\
  -d ${shellQuote(JSON.stringify({ tool, args }))}`,
    },
    {
      label: "lass",
      text: `deno task lass call --url ${shellQuote(base)} ${shellQuote(serverId)} ${
        shellQuote(tool)
      } ${shellQuote(json)}`,
    },
    {
      label: "MCP SDK (TypeScript)",
      text: `import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

// Through Lass's proxy: Lass adds the server's headers and sign-in, and the call shows in its trace.
const client = new Client({ name: "my-script", version: "1.0.0" });
await client.connect(
  new StreamableHTTPClientTransport(new URL(${
        JSON.stringify(`${base}/mcp/${encodeURIComponent(serverId)}`)
      }), {
    requestInit: { headers: { Authorization: \`Bearer \${process.env.LASS_TOKEN}\` } },
  }),
);
const result = await client.callTool({ name: ${JSON.stringify(tool)}, arguments: ${json} });
console.log(result);
await client.close();`,
    },
  ];
}

function Snippet({ label, text }: { label: string; text: string }) {
  const shown = useRef<HTMLPreElement>(null);
  return (
    <div class="copy-as-snippet">
      <div class="copy-as-head">
        <h4>{label}</h4>
        <CopyButton text={text} shown={shown} what={`as ${label}`} />
      </div>
      <pre ref={shown} class="json">{text}</pre>
    </div>
  );
}

/** The props of {@link CopyAs}. */
export interface CopyAsProps {
  serverId: string;
  tool: string;
  args: Record<string, unknown>;
}

/** "Copy as…": a call as curl, lass and SDK code, folded until opened. */
export function CopyAs({ serverId, tool, args }: CopyAsProps) {
  return (
    <details class="copy-as">
      <summary>Copy as…</summary>
      <p class="hint">
        Each reads Lass's token from <code>LASS_TOKEN</code> (the token= of the URL Lass printed).
      </p>
      {callSnippets(location.origin, serverId, tool, args).map((snippet) => (
        <Snippet key={snippet.label} {...snippet} />
      ))}
    </details>
  );
}
