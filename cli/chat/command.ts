/** `lass chat`: one chat turn per message, in process or on a running Lass (`--url`). */
import type { Lass } from "../../lass.ts";
import type { ChatChunk } from "../../wire/chat.ts";
import { type Api, apiError, inProcessApi, ndjsonLines, remoteApi } from "../api.ts";
import { type ApproveMode, InteractionAnswers } from "../answers.ts";
import { CliError } from "../errors.ts";
import { print, StdoutClosed, TextOutput } from "./output.ts";
import { compareColumns, runCompareTurn, type TurnOptions } from "./compare.ts";
import {
  COMMON_HELP,
  openLass,
  parseFlags,
  RUN_ONCE,
  validateWithoutCompiling,
} from "../options.ts";
import { followInterrupt } from "../interrupt.ts";
import { Spinner } from "../spinner.ts";
import { connectWithin } from "../../core/mcp/manager/connect_within.ts";
import { defaultWorkspace } from "../../core/config/workspaces.ts";

/** The help of `lass chat`. */
export const CHAT_HELP = `Usage: lass chat [options] <message...>

Runs one chat turn per message, in order, each continuing the conversation of the ones before
(quote a message that has spaces). Prints the answer's text on stdout; on stderr the tool calls
(→ server.tool {args}, ← result), the tool servers left out of a turn, with why, and each turn's
tokens and cost (— 1234 tokens · $0.0021). Runs in this process unless --url is given.

Options:
  --workspace <id>    The workspace (default the active one)
  --model <id>        Another model profile than the workspace's
  --agent <id>        Chat with this remote agent instead
  --compare <a,b,...> Run the message once per model profile (2 to 4 ids; agent:<id> for a
                      remote agent) at the same time: the answers one after the other, then a
                      table of time, tokens, cost, tool calls and steps (one message only)
  --session <id>      Continue this stored session (created if it does not exist) and save
                      the turns to it; without it the turns are not saved
  --json              Print the NDJSON chunks exactly as POST /api/chat streams them
  --approve <mode>    Tool approvals, elicitation and sampling requests: all (approve; forms
                      get their defaults), none (deny), ask (a y/n question on the terminal).
                      Default: ask when stdin is a terminal, else none
  --url <url>         Send the turns to a running Lass instead                       [LASS_URL]
  --token <token>     Its service token (or the token= of the URL it printed)      [LASS_TOKEN]
${COMMON_HELP}

Exit code: 0 when every turn (and every --compare column) finished, 1 on an error chunk or a failure, 2 for a usage error.
`;

/** The messages of a stored session, or none when it does not exist yet. */
async function sessionMessages(api: Api, id: string): Promise<unknown[]> {
  const response = await api.call(`/api/sessions/${encodeURIComponent(id)}`);
  if (response.status === 404) {
    await response.body?.cancel();
    return [];
  }
  if (!response.ok) throw await apiError(response, `cannot read the session ${id}`);
  return ((await response.json()) as { messages: unknown[] }).messages;
}

/** What the spinner says after a chunk (nothing once the answer's text streams). */
function waitingFor(chunk: ChatChunk): string | undefined {
  if (chunk.type === "tool-call") return `running ${chunk.source}.${chunk.tool}`;
  if (chunk.type === "step" && chunk.finishReason === "tool-calls") return "waiting for the model";
  if (chunk.type === "start") return `waiting for ${chunk.model}`;
  return undefined;
}

/** Runs one turn and prints it; the model messages it added, or `undefined` after an error. */
async function runTurn(options: TurnOptions): Promise<unknown[] | undefined> {
  const { spinner } = options;
  spinner.start("starting the turn");
  const response = await options.api.call("/api/chat", { method: "POST", json: options.body })
    .finally(() => spinner.stop());
  if (!response.ok || !response.body) throw await apiError(response, "the chat was refused");
  const runId = response.headers.get("x-run-id");
  if (runId) options.answers.addRun(runId);
  const text = new TextOutput();
  let added: unknown[] | undefined;
  try {
    for await (const { line, value } of ndjsonLines(response.body, options.signal)) {
      const chunk = value as ChatChunk;
      spinner.stop();
      if (options.json) print(`${line}\n`);
      else text.write(chunk);
      if (chunk.type === "finish") added = chunk.messages;
      if (chunk.type === "error") return undefined;
      const label = waitingFor(chunk);
      if (label) spinner.start(label);
    }
  } finally {
    spinner.stop();
  }
  options.signal.throwIfAborted();
  if (added === undefined) throw new CliError("the chat stream ended without a finish chunk", 1);
  return added;
}

/**
 * Gets an in-process Lass ready for a turn on a workspace while the chat code loads: connects the
 * workspace's tool servers (each within its connect timeout), so that the turn neither waits for
 * them nor, on a slow machine, starts without them. An unknown workspace is left to the API.
 */
async function warmUp(lass: Lass, workspaceId: string | undefined): Promise<void> {
  const config = lass.service.config.config;
  const workspace = workspaceId === undefined
    ? defaultWorkspace(config)
    : config.workspaces.find((candidate) => candidate.id === workspaceId);
  const loading = import("../../core/chat/run.ts");
  await Promise.all((workspace?.mcpServerIds ?? []).map((serverId) => {
    const record = config.mcpServers.find((server) => server.id === serverId);
    return record && connectWithin(lass.service.mcp, serverId, record.timeoutMs);
  }));
  await loading;
}

function approveMode(value: string | undefined): ApproveMode {
  if (value === undefined) return Deno.stdin.isTerminal() ? "ask" : "none";
  if (value === "all" || value === "none" || value === "ask") return value;
  throw new CliError(`--approve must be all, none or ask, not ${JSON.stringify(value)}`);
}

/** Runs `lass chat`; the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      workspace: { type: "string" },
      model: { type: "string" },
      agent: { type: "string" },
      session: { type: "string" },
      compare: { type: "string" },
      json: { type: "boolean" },
      approve: { type: "string" },
      url: { type: "string" },
      token: { type: "string" },
    },
    "chat",
    true,
  );
  if (values.help) return console.log(CHAT_HELP), 0;
  if (positionals.length === 0) {
    throw new CliError("give the message to send (see lass chat --help)");
  }
  if (positionals.some((message) => message.trim() === "")) {
    throw new CliError("a message is empty: give the text to send");
  }
  if (values.session === "") throw new CliError("--session needs a session id");
  const columns = values.compare === undefined ? undefined : compareColumns(values.compare);
  if (columns && positionals.length > 1) {
    throw new CliError("--compare runs one message: give one (quote it when it has spaces)");
  }
  if (columns && (values.model || values.agent)) {
    throw new CliError("--compare names the models itself: leave out --model and --agent");
  }
  const mode = approveMode(values.approve);
  const url = values.url ?? Deno.env.get("LASS_URL");
  let api: Api;
  if (url) {
    api = remoteApi(url, values.token ?? Deno.env.get("LASS_TOKEN"));
    for (const flag of ["config", "data-dir"] as const) {
      if (values[flag] !== undefined) {
        console.error(`lass: --${flag} is not used with --url: the running Lass has its own`);
      }
    }
  } else {
    await validateWithoutCompiling();
    const lass = await openLass(values, RUN_ONCE);
    api = inProcessApi(lass);
    await warmUp(lass, values.workspace).catch(async (error) => {
      await lass.close();
      throw error;
    });
  }
  const spinner = new Spinner();
  const answers = new InteractionAnswers(api, mode, spinner);
  const interrupt = followInterrupt();
  try {
    await answers.start();
    const history = values.session ? await sessionMessages(api, values.session) : [];
    const shared = { api, json: values.json ?? false, answers, spinner, signal: interrupt.signal };
    if (columns) {
      const finished = await runCompareTurn({
        ...shared,
        body: {
          messages: [...history, { role: "user", content: positionals[0] }],
          columns,
          ...(values.workspace && { workspaceId: values.workspace }),
          ...(values.session && { sessionId: values.session }),
        },
      });
      return finished ? 0 : 1;
    }
    for (const message of positionals) {
      history.push({ role: "user", content: message });
      const added = await runTurn({
        ...shared,
        body: {
          messages: history,
          ...(values.workspace && { workspaceId: values.workspace }),
          ...(values.model && { llmId: values.model }),
          ...(values.agent && { agentId: values.agent }),
          ...(values.session && { sessionId: values.session }),
        },
      });
      if (added === undefined) return 1;
      history.push(...added);
    }
    return 0;
  } catch (error) {
    // The reader of stdout left (`| head`): the turn stopped when its stream was cancelled, and
    // a stored session keeps it as aborted. Nothing is said: like other Unix tools, exit quietly.
    if (error instanceof StdoutClosed) return 0;
    throw error;
  } finally {
    interrupt.dispose();
    await answers.stop();
    await api.close();
  }
}
