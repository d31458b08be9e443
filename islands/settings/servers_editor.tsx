/** The tool-server editor: fields per transport, OAuth, limits, tools, and a Test of the draft. */
import type { Signal } from "@preact/signals";
import type { ServerProbe } from "../../wire/tool_servers.ts";
import { formatDuration } from "../format.ts";
import { mcpApi, stateOf } from "../tool_servers.ts";
import { CheckActions, CheckButton, failedSentence, TestResult, useCheck } from "./checks.tsx";
import { SettingsChoiceField } from "./choices.tsx";
import { LinesField, SelectField, TextField } from "./fields.tsx";
import { MoreErrors, type RecordDraft, withStandIns } from "./form.tsx";
import type { EditorProps } from "./kit.tsx";
import { StatusBadge } from "./servers_status.tsx";
import { ToolSettings } from "./servers_tools.tsx";

const TRANSPORTS: [string, string][] = [
  ["stdio", "stdio (a local command)"],
  ["http", "Streamable HTTP"],
  ["sse", "HTTP + SSE (older servers)"],
];

const STDIO_ONLY = ["command", "args", "env", "cwd"];
const REMOTE_ONLY = ["url", "headers", "oauth"];

/** The draft after picking a transport: fields the new transport refuses are dropped. */
function withTransport(draft: RecordDraft, transport: string): RecordDraft {
  const next: RecordDraft = { ...draft, transport };
  for (const field of transport === "stdio" ? REMOTE_ONLY : STDIO_ONLY) delete next[field];
  return next;
}

/** `oauth`: sign in when asked (absent), off (`false`), or a pre-registered client (an object). */
function OAuthFields({ draft }: { draft: Signal<RecordDraft> }) {
  return (
    <SettingsChoiceField
      draft={draft}
      name="oauth"
      legend="Sign-in (OAuth)"
      options={[
        ["default", "Sign in when the server asks"],
        ["off", "Off (e.g. a token in the headers)"],
        ["custom", "Pre-registered client"],
      ]}
    >
      {(client) => (
        <div class="oauth-client">
          <TextField
            draft={client}
            name="clientId"
            label="Client id"
            hint="Empty: Lass registers itself with the server."
          />
          <TextField
            draft={client}
            name="clientSecret"
            label="Client secret"
            type="password"
            hint="For a confidential client; env:NAME or ${NAME} reads a variable."
          />
          <LinesField
            draft={client}
            name="scopes"
            label="Scopes"
            shape="list"
            hint="One per line; used when the server names none."
          />
        </div>
      )}
    </SettingsChoiceField>
  );
}

/** Tests a draft (not saved): a usable id has no `__`, which separates it from tool names. */
function testServer(draft: RecordDraft): Promise<ServerProbe> {
  return mcpApi.test(withStandIns(draft, (id) => !id.includes("__")));
}

/** What a test found: the server and what it offers, that it asks for sign-in, or why it failed. */
function ProbeResult({ probe }: { probe: ServerProbe }) {
  const info = probe.serverInfo;
  const sentence = probe.ok
    ? `Connected in ${formatDuration(probe.latencyMs)}${
      info ? ` to ${info.title ?? info.name} ${info.version}` : ""
    }: ${probe.tools.length} tools, ${probe.prompts.length} prompts, ${probe.resources.length} resources.`
    : probe.status === "needs-auth"
    ? "The server asks for sign-in."
    : failedSentence(probe);
  return (
    <TestResult
      ok={probe.ok}
      sentence={
        <>
          <StatusBadge status={probe.status} /> {sentence}
        </>
      }
    >
      {probe.status === "needs-auth" && probe.authUrl
        ? (
          <p>
            <a href={probe.authUrl} target="_blank" rel="opener">Sign in</a>{" "}
            <span class="hint">
              The sign-in is kept under this server's id, so save the server with the same id.
            </span>
          </p>
        )
        : null}
      {probe.ok && probe.tools.length > 0
        ? <p class="hint">{probe.tools.map((tool) => tool.name).join(", ")}</p>
        : null}
    </TestResult>
  );
}

/** The tool-server editor. */
export function ServerEditor({ draft, original }: EditorProps) {
  const test = useCheck(testServer, { prefix: "server" });
  const transport = String(draft.value.transport ?? "stdio");
  const remote = transport !== "stdio";
  const live = original ? stateOf(original.id) : undefined;
  const known = test.result.value?.ok ? test.result.value.tools : live?.tools ?? [];
  return (
    <div class="server-editor">
      <MoreErrors errors={test.errors.value}>
        <TextField draft={draft} name="name" label="Name" required />
        <SelectField
          draft={draft}
          name="transport"
          label="Transport"
          options={TRANSPORTS}
          onChange={(value) => draft.value = withTransport(draft.peek(), value)}
        />
        {remote
          ? (
            <>
              <TextField
                draft={draft}
                name="url"
                label="URL"
                type="url"
                required
                placeholder={transport === "sse"
                  ? "http://127.0.0.1:8931/sse"
                  : "https://mcp.example.com/mcp"}
                hint="http or https; may contain ${NAME}."
              />
              <LinesField
                draft={draft}
                name="headers"
                label="Headers"
                shape="map"
                hint="NAME=value per line, e.g. authorization=Bearer ${TOKEN}."
              />
              <OAuthFields draft={draft} />
            </>
          )
          : (
            <>
              <TextField
                draft={draft}
                name="command"
                label="Command"
                required
                placeholder="npx"
                hint="The executable. service:demo is the built-in demo server."
              />
              <LinesField
                draft={draft}
                name="args"
                label="Arguments"
                shape="list"
                hint="One per line, passed as they are (no shell quoting)."
              />
              <LinesField
                draft={draft}
                name="env"
                label="Environment"
                shape="map"
                hint="KEY=value per line, added to a safe default environment; values may be env:NAME or contain ${NAME}."
              />
              <TextField
                draft={draft}
                name="cwd"
                label="Working directory"
                hint="Relative to the config file's folder."
              />
            </>
          )}
        <TextField
          draft={draft}
          name="timeoutMs"
          label="Connect timeout (ms)"
          type="number"
          placeholder="30000"
          hint="100 to 600000."
        />
        <SelectField
          draft={draft}
          name="sampling"
          label="Sampling requests"
          options={[
            ["", "Ask each time (default)"],
            ["ask", "Ask each time"],
            ["auto", "Answer with the model without asking"],
            ["deny", "Refuse"],
          ]}
          hint="When the server asks Lass's model for a completion."
        />
        <ToolSettings draft={draft} known={known} />
      </MoreErrors>
      <CheckActions
        hint="Connects with these settings (not saved), lists what it offers."
        refusal={test}
      >
        <CheckButton check={test} draft={draft} label="Test" busyLabel="Testing…" />
      </CheckActions>
      {test.result.value ? <ProbeResult probe={test.result.value} /> : null}
    </div>
  );
}
