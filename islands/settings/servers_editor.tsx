/** The tool-server editor: fields per transport, OAuth, limits, tools, and a Test of the draft. */
import { type Signal, useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { useContext, useEffect } from "preact/hooks";
import { ApiError } from "../api.ts";
import { formatDuration } from "../format.ts";
import { describeError } from "../state.ts";
import {
  type EditorProps,
  errorsAt,
  type FieldErrors,
  FormErrors,
  LinesField,
  MoreErrors,
  type RecordDraft,
  SelectField,
  TextField,
} from "./kit.tsx";
import { type ServerProbe, serversApi, stateOf, testableServer } from "./servers_api.ts";
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

/** The errors under `prefix.`, without it, for the fields of a nested object. */
function Nested(props: { prefix: string; children: ComponentChildren }) {
  const errors = useContext(FormErrors);
  const nested: FieldErrors = {};
  for (const [key, message] of Object.entries(errors)) {
    if (key.startsWith(`${props.prefix}.`)) nested[key.slice(props.prefix.length + 1)] = message;
  }
  return <FormErrors.Provider value={nested}>{props.children}</FormErrors.Provider>;
}

type OAuthMode = "auto" | "off" | "client";

/** `oauth`: sign in when asked (absent), off (`false`), or a pre-registered client (an object). */
function OAuthFields({ draft }: { draft: Signal<RecordDraft> }) {
  const value = draft.value.oauth;
  const mode: OAuthMode = value === false
    ? "off"
    : value && typeof value === "object"
    ? "client"
    : "auto";
  const client = useSignal<RecordDraft>({
    id: "",
    ...(value && typeof value === "object" ? value as Record<string, unknown> : {}),
  });
  // The client's fields live in a draft of their own; each change is written into `oauth`.
  useEffect(() =>
    client.subscribe((next) => {
      if (typeof draft.peek().oauth !== "object") return;
      const { id: _id, ...fields } = next;
      draft.value = { ...draft.peek(), oauth: fields };
    }), []);
  const choose = (chosen: OAuthMode) => {
    const next = { ...draft.peek() };
    if (chosen === "auto") delete next.oauth;
    else if (chosen === "off") next.oauth = false;
    else {
      const { id: _id, ...fields } = client.peek();
      next.oauth = fields;
    }
    draft.value = next;
  };
  return (
    <fieldset class="oauth-fields">
      <legend>Sign-in (OAuth)</legend>
      <div class="choice-options" role="radiogroup" aria-label="Sign-in (OAuth)">
        {([
          ["auto", "Sign in when the server asks"],
          ["off", "Off (e.g. a token in the headers)"],
          ["client", "Pre-registered client"],
        ] as [OAuthMode, string][]).map(([option, label]) => (
          <label key={option}>
            <input
              type="radio"
              name={`oauth-${draft.peek().id}`}
              checked={mode === option}
              onChange={() => choose(option)}
            />{" "}
            {label}
          </label>
        ))}
      </div>
      {mode === "client"
        ? (
          <Nested prefix="oauth">
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
          </Nested>
        )
        : null}
    </fieldset>
  );
}

/** The state of the editor's Test button. */
function useServerTest() {
  const busy = useSignal(false);
  const probe = useSignal<ServerProbe | null>(null);
  const failure = useSignal<string | null>(null);
  const errors = useSignal<FieldErrors>({});
  return {
    busy,
    probe,
    failure,
    errors,
    async run(draft: RecordDraft) {
      busy.value = true;
      try {
        probe.value = await serversApi.test(testableServer(draft));
        failure.value = null;
        errors.value = {};
      } catch (error) {
        probe.value = null;
        failure.value = describeError(error);
        errors.value = error instanceof ApiError ? errorsAt(error.details, "server") : {};
      } finally {
        busy.value = false;
      }
    },
  };
}

function ProbeResult({ probe }: { probe: ServerProbe }) {
  const took = formatDuration(probe.latencyMs);
  const info = probe.serverInfo;
  return (
    <section
      class={probe.ok ? "test-result ok" : "test-result failed"}
      aria-label="Test result"
    >
      <p class="test-sentence" role={probe.ok ? "status" : "alert"}>
        <StatusBadge status={probe.status} /> {probe.ok
          ? `Connected in ${took}${
            info ? ` to ${info.title ?? info.name} ${info.version}` : ""
          }: ${probe.tools.length} tools, ${probe.prompts.length} prompts, ${probe.resources.length} resources.`
          : probe.status === "needs-auth"
          ? "The server asks for sign-in."
          : `Failed after ${took}: ${probe.error ?? "no reason given"}`}
      </p>
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
    </section>
  );
}

/** The tool-server editor. */
export function ServerEditor({ draft, original }: EditorProps) {
  const test = useServerTest();
  const transport = String(draft.value.transport ?? "stdio");
  const remote = transport !== "stdio";
  const live = original ? stateOf(original.id) : undefined;
  const known = test.probe.value?.ok ? test.probe.value.tools : live?.tools ?? [];
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
      <div class="check-actions">
        <button type="button" disabled={test.busy.value} onClick={() => test.run(draft.peek())}>
          {test.busy.value ? "Testing…" : "Test"}
        </button>
        <span class="hint">Connects with these settings (not saved), lists what it offers.</span>
      </div>
      {test.failure.value ? <p class="error" role="alert">{test.failure.value}</p> : null}
      {test.probe.value ? <ProbeResult probe={test.probe.value} /> : null}
    </div>
  );
}
