/**
 * Recordings in the inspector: save what Lass's session with the server exchanged as a cassette
 * (`GET /api/mcp/:id/cassette`), and verify the server against a cassette file
 * (`POST /api/mcp/:id/verify`), with a diff per drifted exchange (docs/recordings.md).
 */
import { useSignal } from "@preact/signals";
import { api, describeError } from "../state.ts";
import type { VerifyReport } from "../../wire/cassette.ts";
import type { ToolServerState } from "../../wire/tool_servers.ts";

const path = (id: string, action: string) => `/api/mcp/${encodeURIComponent(id)}/${action}`;

/** Downloads a server's cassette as `<id>.cassette.json`. */
async function saveCassette(id: string): Promise<void> {
  const cassette = await api().json<unknown>("GET", path(id, "cassette"));
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
  return (
    <div class="server-controls recording-controls" role="group" aria-label="Recordings">
      <span class="control">
        <button
          type="button"
          disabled={busy.value !== null}
          title="Download what Lass's session with the server exchanged as a cassette (secrets removed)"
          onClick={() => run("save", () => saveCassette(state.id))}
        >
          {busy.value === "save" ? "Saving…" : "Save as cassette"}
        </button>
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
