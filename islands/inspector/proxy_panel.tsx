/**
 * The inspector's proxy section of a server: "Use from your client" (the snippets that point
 * Claude Desktop, Claude Code, Cursor or VS Code at Lass's proxy) and the clients connected
 * through it now, kept current by the `mcp.proxy` events.
 */
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { plural } from "../../wire/words.ts";
import type { ProxyClient } from "../../wire/proxy.ts";
import { proxySnippets } from "../../wire/proxy_snippets.ts";
import { timeAgo } from "../format.ts";
import { api, describeError, serviceToken, subscribe } from "../state.ts";

/** The answer of `GET /api/mcp/:id/proxy`. */
interface ProxyAnswer {
  clients: ProxyClient[];
  holds: string[];
  url: string;
  command: string[];
}

/** The methods offered as hold switches (others can be typed). */
const HOLDABLE = [
  "tools/call",
  "resources/read",
  "prompts/get",
  "sampling/createMessage",
  "elicitation/create",
];

/** Switches for the methods the proxy holds, for this run of Lass. */
function HoldSwitches(
  { serverId, holds: saved, changed }: {
    serverId: string;
    holds: string[];
    changed: () => void;
  },
) {
  const error = useSignal<string | null>(null);
  // The switches show the choice at once; the server's answer (a reload) confirms or restores it.
  const chosen = useSignal<string[] | null>(null);
  useEffect(() => void (chosen.value = null), [saved.join("\n")]);
  const holds = chosen.value ?? saved;
  const others = holds.filter((method) => !HOLDABLE.includes(method));
  const put = async (methods: string[]) => {
    chosen.value = methods;
    try {
      const path = `/api/mcp/${encodeURIComponent(serverId)}/proxy/holds`;
      await api().json("PUT", path, { methods });
      error.value = null;
    } catch (failure) {
      error.value = describeError(failure);
      chosen.value = null;
    }
    changed();
  };
  return (
    <fieldset class="proxy-holds">
      <legend>Hold requests before they are relayed</legend>
      {HOLDABLE.map((method) => (
        <label key={method} class="check">
          <input
            type="checkbox"
            id={`hold-${serverId}-${method}`.replace(/[^\w-]/g, "_")}
            checked={holds.includes(method)}
            onChange={(event) =>
              put(
                event.currentTarget.checked
                  ? [...holds, method]
                  : holds.filter((held) => held !== method),
              )}
          />
          {method}
        </label>
      ))}
      <label>
        <span>Others to hold</span>
        <input
          type="text"
          value={others.join(", ")}
          placeholder="e.g. completion/complete"
          onChange={(event) =>
            put([
              ...holds.filter((method) => HOLDABLE.includes(method)),
              ...event.currentTarget.value.split(",").map((m) => m.trim()).filter(Boolean),
            ])}
        />
      </label>
      <p class="hint">
        A held request waits under "Waiting for you" to be forwarded (maybe edited), answered by
        you, or dropped. For this run of Lass; the record's <code>holds</code>{" "}
        keeps them. A client over stdio is held when its <code>lass proxy</code> has{" "}
        <code>--url</code> and <code>--token</code> for this Lass.
      </p>
      {error.value ? <p class="error" role="alert">{error.value}</p> : null}
    </fieldset>
  );
}

function Snippet({ label, text }: { label: string; text: string }) {
  return (
    <div class="proxy-snippet">
      <h4>
        {label}
        <button type="button" onClick={() => navigator.clipboard?.writeText(text)}>Copy</button>
      </h4>
      <pre class="json">{text}</pre>
    </div>
  );
}

/** A server's proxy clients and the snippets to add more. */
export function ProxyPanel({ serverId }: { serverId: string }) {
  const answer = useSignal<ProxyAnswer | null>(null);
  const error = useSignal<string | null>(null);
  const client = useSignal(0);
  const reload = useRef<(() => Promise<void>) | null>(null);
  useEffect(() => {
    let live = true;
    const load = async () => {
      try {
        const path = `/api/mcp/${encodeURIComponent(serverId)}/proxy`;
        const next = await api().json<ProxyAnswer>("GET", path);
        if (live) [answer.value, error.value] = [next, null];
      } catch (failure) {
        if (live) error.value = describeError(failure);
      }
    };
    reload.current = load;
    void load();
    const stop = subscribe((event) => {
      if (event.type === "mcp.proxy" && event.data.id === serverId) void load();
    });
    // The message counts of connected clients move with every message: read them every 3 s.
    const timer = setInterval(() => {
      if ((answer.value?.clients.length ?? 0) > 0) void load();
    }, 3000);
    return () => {
      live = false;
      stop();
      clearInterval(timer);
    };
  }, [serverId]);
  if (!answer.value) return error.value ? <p class="error">{error.value}</p> : null;
  const { clients, holds, url, command } = answer.value;
  const snippets = proxySnippets({ serverId, url, token: serviceToken() ?? "<token>", command });
  const chosen = snippets[client.value] ?? snippets[0];
  return (
    <section class="inspector-proxy" aria-label="Proxy">
      <h2>
        Proxy <span class="count">{plural(clients.length, "client")} connected</span>
      </h2>
      {clients.length > 0
        ? (
          <ul class="proxy-clients">
            {clients.map((c) => (
              <li key={c.session}>
                <strong>{c.client?.name ?? "unnamed client"}</strong>
                {c.client?.version ? ` ${c.client.version}` : ""}
                <span class="badge">{c.transport}</span>
                <span class="hint">
                  since {timeAgo(c.since)} · {plural(c.messages, "message")} ·{" "}
                  {plural(c.errors, "error")}
                </span>
              </li>
            ))}
          </ul>
        )
        : null}
      <HoldSwitches serverId={serverId} holds={holds} changed={() => reload.current?.()} />
      <details class="proxy-use">
        <summary>Use from your client</summary>
        <p class="hint">
          Any MCP client can reach this server through Lass, which traces what crosses.
        </p>
        <label>
          <span>Client</span>
          <select
            value={String(client.value)}
            onChange={(event) => client.value = Number(event.currentTarget.value)}
          >
            {snippets.map((s, index) => <option key={s.client} value={index}>{s.client}</option>)}
          </select>
        </label>
        <p class="hint">In {chosen.where}:</p>
        {chosen.http ? <Snippet label="Over HTTP" text={chosen.http} /> : null}
        <Snippet label="Over stdio (lass proxy)" text={chosen.stdio} />
      </details>
    </section>
  );
}
