/** The tool-server editor: fields per transport, OAuth, limits, roots, tools, and a Test of the draft. */
import type { Signal } from "@preact/signals";
import type { ServerProbe } from "../../wire/tool_servers.ts";
import { plural } from "../../wire/words.ts";
import { formatDuration } from "../format.ts";
import { mcpApi, stateOf } from "../tool_servers.ts";
import { CheckActions, CheckButton, failedSentence, TestResult, useCheck } from "./checks.tsx";
import { SettingsChoiceField } from "./choices.tsx";
import { CheckField, LinesField, SelectField, TextField } from "./fields.tsx";
import { MoreErrors, type RecordDraft, withStandIns } from "./form.tsx";
import type { EditorProps } from "./kit.tsx";
import { RootsField } from "./roots_field.tsx";
import { StatusBadge } from "./servers_status.tsx";
import { StdioFields } from "./servers_stdio.tsx";
import { ToolSettings } from "./servers_tools.tsx";

const TRANSPORTS: [string, string][] = [
  ["stdio", "stdio (a local command)"],
  ["http", "Streamable HTTP"],
  ["sse", "HTTP + SSE (older servers)"],
  ["replay", "Replay (a recorded cassette)"],
];

/** The fields only some transports take. */
const ONLY: Record<string, string[]> = {
  stdio: ["command", "args", "env", "inheritEnv", "cwd"],
  remote: ["url", "headers", "oauth"],
  replay: ["cassette", "match", "speed"],
};

/** The draft after picking a transport: fields the new transport refuses are dropped. */
function withTransport(draft: RecordDraft, transport: string): RecordDraft {
  const next: RecordDraft = { ...draft, transport };
  const kind = transport === "http" || transport === "sse" ? "remote" : transport;
  for (const [owner, fields] of Object.entries(ONLY)) {
    if (owner !== kind) { for (const field of fields) delete next[field]; }
  }
  return next;
}

/** A replay's cassette, matching and pace (docs/recordings.md). */
function ReplayFields({ draft }: { draft: Signal<RecordDraft> }) {
  return (
    <>
      <TextField
        draft={draft}
        name="cassette"
        label="Cassette"
        required
        placeholder="cassettes/everything.cassette.json"
        hint="A *.cassette.json file (lass record, or the inspector's Save as cassette), relative to the config file's folder."
      />
      <SelectField
        draft={draft}
        name="match"
        label="Matching"
        options={[
          ["", "Exact: the same method and params (default)"],
          ["tool", "Tool: a tool call falls back to the closest recorded arguments"],
        ]}
        shown={(value) => value === "exact" ? "" : value}
      />
      <TextField
        draft={draft}
        name="speed"
        label="Speed"
        type="number"
        placeholder="1"
        hint="Recorded delays are divided by it: 1 as recorded, 0 answers at once."
      />
    </>
  );
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
    }${eraOf(probe)}: ${plural(probe.tools.length, "tool")}, ${
      plural(probe.prompts.length, "prompt")
    }, ${plural(probe.resources.length, "resource")}.`
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

/** " over protocol 2026-07-28 (modern)", or nothing when the era is unknown. */
export function eraOf(state: { era?: string; protocolVersion?: string }): string {
  if (!state.era) return "";
  return ` over protocol ${state.protocolVersion ?? "?"} (${state.era})`;
}

/** The tool-server editor. */
export function ServerEditor({ draft, original }: EditorProps) {
  const test = useCheck(testServer, { prefix: "server" });
  const transport = String(draft.value.transport ?? "stdio");
  const remote = transport === "http" || transport === "sse";
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
          : transport === "replay"
          ? <ReplayFields draft={draft} />
          : <StdioFields draft={draft} />}
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
          name="protocolEra"
          label="Protocol era"
          options={[
            ["", "Auto: 2026-07-28 if the server speaks it, else 2025 (default)"],
            ["legacy", "Legacy: the 2025 initialize handshake only"],
            ["modern", "Modern: 2026-07-28 only"],
          ]}
          shown={(value) => value === "auto" ? "" : value}
          hint="Auto probes once and remembers the answer until these settings change."
        />
        <SelectField
          draft={draft}
          name="sampling"
          label="Sampling requests"
          options={[
            ["", "Ask each time (default)"],
            ["auto", "Answer with the model without asking"],
            ["deny", "Refuse"],
          ]}
          shown={(value) => value === "ask" ? "" : value}
          hint="When the server asks Lass's model for a completion."
        />
        <SelectField
          draft={draft}
          name="pinning"
          label="Pinning"
          options={[
            ["", "Warn: show what changed since pinned (default)"],
            ["block", "Block: also leave changed tools out of chat until accepted"],
            ["off", "Off: compare nothing"],
          ]}
          shown={(value) => value === "warn" ? "" : value}
          hint="Tools, prompts and resource templates are compared with lass.lock.json beside the config, else with the first ones seen."
        />
        <RootsField draft={draft} />
        <CheckField
          draft={draft}
          name="trace"
          label="Record the wire trace"
          defaultOn
          hint="Every JSON-RPC message to and from the server, for the inspector (the last 2,000)."
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
