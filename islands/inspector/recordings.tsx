/**
 * Recordings in the inspector: save what Lass's session with the server exchanged as a cassette
 * (`GET /api/mcp/:id/cassette`), and verify the server against a cassette file
 * (`POST /api/mcp/:id/verify`), with a diff per drifted exchange (docs/recordings.md).
 */
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api, describeError, subscribe } from "../state.ts";
import type { VerifyReport } from "../../wire/cassette.ts";
import type { ToolServerState } from "../../wire/tool_servers.ts";
import type { TraceMessage } from "../../wire/trace.ts";

const path = (id: string, action: string) => `/api/mcp/${encodeURIComponent(id)}/${action}`;

/** Which messages a cassette is made of: a proxy session's (else Lass's own), after a seq. */
interface CassetteRange {
  session: string;
  since: string;
}

/** A proxy session seen in the trace, as the session picker shows it. */
interface SeenSession {
  session: string;
  label: string;
}

/** The proxy sessions of the server's trace, newest first, each named by its client. */
async function proxySessions(id: string): Promise<SeenSession[]> {
  const { messages } = await api().json<{ messages: TraceMessage[] }>(
    "GET",
    path(id, "trace?limit=2000"),
  );
  const seen = new Map<string, string>();
  for (const message of messages) {
    if (message.via !== "proxy" || !message.session) continue;
    const name = message.client ? `${message.client.name} ${message.client.version ?? ""}` : "";
    if (name || !seen.has(message.session)) {
      seen.set(message.session, `${name.trim() || "a client"} (${message.session.slice(0, 8)})`);
    }
  }
  return [...seen].reverse().map(([session, label]) => ({ session, label }));
}

/** Downloads a server's cassette as `<id>.cassette.json`. */
async function saveCassette(id: string, range: CassetteRange): Promise<void> {
  const query = new URLSearchParams();
  if (range.session) query.set("session", range.session);
  if (/^\d+$/.test(range.since.trim())) query.set("since", range.since.trim());
  const suffix = query.size > 0 ? `?${query}` : "";
  const cassette = await api().json<unknown>("GET", path(id, `cassette${suffix}`));
  const blob = new Blob([JSON.stringify(cassette, null, 2) + "\n"], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `${id}.cassette.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** The drifted and failed exchanges of a report, each with its differences. */
function VerifyResult({ report }: { report: VerifyReport }) {
  const shown = report.exchanges.filter((e) => e.outcome === "drift" || e.outcome === "failed");
  return (
    <div class="verify-report" role="status">
      <p class={report.ok ? "ok" : "error"}>
        {report.ok ? "Same as recorded" : "Drift"}: {report.same} same, {report.drifted} drifted,
        {" "}
        {report.failed} failed, {report.skipped} skipped.
      </p>
      {shown.map((exchange) => (
        <details key={exchange.index} open>
          <summary>
            #{exchange.index} {exchange.method}
            {exchange.name ? ` ${exchange.name}` : ""}: {exchange.outcome === "failed"
              ? exchange.reason
              : `${exchange.differences.length} difference(s)`}
          </summary>
          <dl class="verify-diff">
            {exchange.differences.map((difference) => (
              <div key={difference.path}>
                <dt>
                  <code>{difference.path}</code>
                </dt>
                <dd>
                  recorded: <code>{JSON.stringify(difference.recorded) ?? "(absent)"}</code>
                </dd>
                <dd>
                  live: <code>{JSON.stringify(difference.live) ?? "(absent)"}</code>
                </dd>
              </div>
            ))}
          </dl>
        </details>
      ))}
    </div>
  );
}

/** The recording controls of a server: Save as cassette, and Verify against a cassette file. */
export function RecordingControls({ state }: { state: ToolServerState }) {
  const busy = useSignal<"save" | "verify" | null>(null);
  const error = useSignal<string | null>(null);
  const report = useSignal<VerifyReport | null>(null);
  const run = async (kind: "save" | "verify", work: () => Promise<void>) => {
    busy.value = kind;
    error.value = null;
    try {
      await work();
    } catch (failure) {
      error.value = describeError(failure);
    } finally {
      busy.value = null;
    }
  };
  const verify = (file: File) =>
    run("verify", async () => {
      report.value = null;
      let cassette: unknown;
      try {
        cassette = JSON.parse(await file.text());
      } catch {
        throw new Error(`${file.name} is not JSON`);
      }
      report.value = await api().json<VerifyReport>("POST", path(state.id, "verify"), {
        cassette,
      });
    });
  const id = `verify-${state.id}`.replace(/[^\w-]/g, "_");
  const session = useSignal("");
  const since = useSignal("");
  const sessions = useSignal<SeenSession[]>([]);
  const refreshSessions = () =>
    proxySessions(state.id).then((found) => sessions.value = found).catch(() => {});
  // The picker follows the proxy's sessions as they open and close.
  useEffect(() => {
    void refreshSessions();
    return subscribe((event) => {
      if (event.type === "mcp.proxy" && event.data.id === state.id) void refreshSessions();
    });
  }, [state.id]);
  return (
    <div class="server-controls recording-controls" role="group" aria-label="Recordings">
      <span class="control">
        <button
          type="button"
          disabled={busy.value !== null}
          title="Download what Lass's session with the server exchanged as a cassette (secrets removed)"
          onClick={() =>
            run(
              "save",
              () => saveCassette(state.id, { session: session.value, since: since.value }),
            )}
        >
          {busy.value === "save" ? "Saving…" : "Save as cassette"}
        </button>
        <label for={`${id}-session`}>of</label>
        <select
          id={`${id}-session`}
          value={session.value}
          title="Whose messages: Lass's own session, or a client's through the proxy"
          onFocus={refreshSessions}
          onPointerDown={refreshSessions}
          onChange={(event) => session.value = event.currentTarget.value}
        >
          <option value="">Lass's own session</option>
          {sessions.value.map((seen) => (
            <option key={seen.session} value={seen.session}>Proxy: {seen.label}</option>
          ))}
        </select>
        <label for={`${id}-since`}>after seq</label>
        <input
          id={`${id}-since`}
          class="seq-input"
          type="number"
          min="0"
          placeholder="all"
          value={since.value}
          title="Only the trace messages after this seq (the Messages tab shows each one's)"
          onInput={(event) => since.value = event.currentTarget.value}
        />
      </span>
      {state.transport === "replay" ? null : (
        <span class="control">
          <label for={id}>
            {busy.value === "verify" ? "Verifying…" : "Verify against a cassette"}
          </label>
          <input
            id={id}
            type="file"
            accept=".json,application/json"
            disabled={busy.value !== null}
            title="Send the cassette's requests to the server on a fresh connection and compare the answers"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              event.currentTarget.value = "";
              if (file) verify(file);
            }}
          />
        </span>
      )}
      {error.value ? <span class="error" role="alert">{error.value}</span> : null}
      {report.value ? <VerifyResult report={report.value} /> : null}
    </div>
  );
}
