/**
 * Resource subscriptions in the inspector: Subscribe / Unsubscribe on a resource, and its
 * updates (`mcp.resource-updated`) as an "updated at" marker and a fresh read while it is shown.
 * What is followed comes from the server's state (`subscriptions`, kept current by the
 * `mcp.subscription` events), so it shows after a reload and for subscriptions made elsewhere.
 */
import { signal, useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { clock } from "../events/row.tsx";
import { describeError, subscribe } from "../state.ts";
import { noteSubscription } from "../tool_servers.ts";
import { workbenchApi } from "./workbench_api.ts";
import type { ToolServerState } from "../../wire/tool_servers.ts";

const keyOf = (serverId: unknown, uri: unknown) => `${serverId}\n${uri}`;

/** When each resource last changed, by server and URI (ISO time of the event). */
const updated = signal<ReadonlyMap<string, string>>(new Map());

subscribe((event) => {
  if (event.type !== "mcp.resource-updated") return;
  const key = keyOf(event.data.serverId, event.data.uri);
  updated.value = new Map(updated.peek()).set(key, event.time);
});

/** Why the server cannot be subscribed to, or `null`. */
function noSubscribeReason(state: ToolServerState): string | null {
  const resources = state.capabilities?.resources as { subscribe?: boolean } | undefined;
  return resources?.subscribe === true ? null : "The server does not offer resource subscriptions";
}

/** The props of {@link SubscribeControl}. */
export interface SubscribeControlProps {
  state: ToolServerState;
  uri: string;
  /** Called when the followed resource changed (to read it again). */
  onUpdated: () => void;
}

/** Subscribe / Unsubscribe, and when the resource last changed. */
export function SubscribeControl({ state, uri, onUpdated }: SubscribeControlProps) {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const key = keyOf(state.id, uri);
  const on = state.subscriptions.includes(uri);
  const at = updated.value.get(key);
  useEffect(() => {
    if (at && on) onUpdated();
  }, [at]);
  const reason = noSubscribeReason(state);
  const toggle = async () => {
    busy.value = true;
    error.value = null;
    try {
      if (on) await workbenchApi.unsubscribe(state.id, uri);
      else await workbenchApi.subscribe(state.id, uri);
      // The event says so too; this shows it at once.
      noteSubscription(state.id, uri, !on);
    } catch (failure) {
      error.value = describeError(failure);
    } finally {
      busy.value = false;
    }
  };
  return (
    <span class="subscription">
      <button
        type="button"
        aria-pressed={on}
        disabled={busy.value || reason !== null}
        title={reason ?? (on ? "Stop following changes" : "Follow changes of this resource")}
        onClick={toggle}
      >
        {on ? "Unsubscribe" : "Subscribe"}
      </button>
      {reason ? <span class="hint">{reason}</span> : null}
      {on ? <span class="badge badge-running">following</span> : null}
      {at
        ? (
          <span class="hint resource-updated" role="status">
            updated at <time dateTime={at}>{clock(at)}</time>
          </span>
        )
        : null}
      {error.value ? <span class="error" role="alert">{error.value}</span> : null}
    </span>
  );
}
