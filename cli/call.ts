/** `lass call`: one tool call on a configured tool server, its result as JSON on stdout. */
import { type Api, apiError, inProcessApi, remoteApi } from "./api.ts";
import { CliError } from "./errors.ts";
import { COMMON_HELP, openLass, parseFlags, RUN_ONCE } from "./options.ts";
import { declineQuestions } from "./questions.ts";

/** The help of `lass call`. */
export const CALL_HELP = `Usage: lass call [options] <server> <tool> [arguments-json]

Calls one tool of a configured tool server, as the inspector does (POST /api/mcp/:id/call),
and prints the result (the MCP CallToolResult) as JSON on stdout. The arguments are a JSON object
(default {}); "-" reads them from stdin. Runs in this process unless --url is given.

Options:
  --timeout <ms>      End the call after this long (default the record's timeoutMs, or 120 s)
  --url <url>         Call through a running Lass instead                          [LASS_URL]
  --token <token>     Its service token (or the token= of the URL it printed)     [LASS_TOKEN]
${COMMON_HELP}

Exit code: 0 when the tool answered, 1 when its result is an error (isError) or the call failed,
2 for a usage error.
`;

/** The arguments object of the command line (or stdin with "-"). */
async function argumentsOf(text: string | undefined): Promise<Record<string, unknown>> {
  if (text === undefined) return {};
  const source = text === "-" ? await new Response(Deno.stdin.readable).text() : text;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    throw new CliError(`the arguments are not JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CliError("the arguments must be a JSON object, e.g. '{\"a\": 2}'");
  }
  return value as Record<string, unknown>;
}

/** Runs `lass call`; the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    { timeout: { type: "string" }, url: { type: "string" }, token: { type: "string" } },
    "call",
    true,
  );
  if (values.help) return console.log(CALL_HELP), 0;
  const [serverId, tool, text, ...rest] = positionals;
  if (!serverId || !tool || rest.length > 0) {
    throw new CliError("give the server, the tool and at most one JSON object of arguments");
  }
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutMs !== undefined && !(Number.isSafeInteger(timeoutMs) && timeoutMs > 0)) {
    throw new CliError("--timeout takes a whole number of milliseconds");
  }
  const callArgs = await argumentsOf(text);
  const url = values.url ?? Deno.env.get("LASS_URL");
  let api: Api;
  if (url) api = remoteApi(url, values.token ?? Deno.env.get("LASS_TOKEN"));
  else {
    const lass = await openLass(values, RUN_ONCE);
    // Nobody is there to answer a server's question (elicitation, sampling): it is declined.
    declineQuestions(lass.service, { serverId, command: "call" });
    api = inProcessApi(lass);
  }
  try {
    const response = await api.call(`/api/mcp/${encodeURIComponent(serverId)}/call`, {
      method: "POST",
      json: { tool, args: callArgs, ...(timeoutMs && { timeoutMs }) },
    });
    if (!response.ok) throw await apiError(response, `the call of ${serverId}.${tool} failed`);
    const answer = await response.json() as { result: { isError?: boolean } };
    console.log(JSON.stringify(answer.result, null, 2));
    return answer.result.isError ? 1 : 0;
  } finally {
    await api.close();
  }
}
