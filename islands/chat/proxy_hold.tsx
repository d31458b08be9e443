/**
 * The body of a held proxy request's card: the request as it arrived, its params editable, and
 * Forward (with the params as edited), Reply (a result typed by the user, which the addressee never
 * sees) or Drop.
 */
import { useSignal } from "@preact/signals";
import { showValue } from "../format.ts";
import type { ProxyHoldAnswer, ProxyHoldRequest } from "../../wire/interactions.ts";

/** Parses a JSON object typed by the user, or says what is wrong. */
function objectOf(text: string): Record<string, unknown> | string {
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? value
      : "must be a JSON object";
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
}

/** The editable request and the three answers of a held request. */
export function ProxyHoldBody(
  { hold, busy, answer }: {
    hold: ProxyHoldRequest & { id: string };
    busy: boolean;
    answer: (response: ProxyHoldAnswer) => void;
  },
) {
  const original = showValue(hold.message.params ?? {});
  const params = useSignal(original);
  const reply = useSignal(hold.method === "tools/call" ? '{"content": []}' : "{}");
  const problem = useSignal<string | null>(null);
  const send = (build: () => ProxyHoldAnswer | string) => {
    const built = build();
    if (typeof built === "string") problem.value = built;
    else {
      problem.value = null;
      answer(built);
    }
  };
  const forward = () =>
    send(() => {
      if (params.value === original) return { action: "forward" };
      const edited = objectOf(params.value);
      return typeof edited === "string"
        ? `params ${edited}`
        : { action: "forward", params: edited };
    });
  const replyWith = () =>
    send(() => {
      const result = objectOf(reply.value);
      return typeof result === "string" ? `reply ${result}` : { action: "reply", result };
    });
  const way = hold.dir === "out" ? "client → server" : "server → client";
  return (
    <>
      <p class="hint">
        {hold.client?.name ?? "a client"} · {way} · forwarded as it is after{" "}
        {Math.round(hold.timeoutMs / 1000)} s without an answer
      </p>
      <label for={`hold-params-${hold.id}`}>Params</label>
      <textarea
        id={`hold-params-${hold.id}`}
        class="json"
        rows={6}
        value={params.value}
        disabled={busy}
        onInput={(event) => params.value = event.currentTarget.value}
      />
      <label for={`hold-reply-${hold.id}`}>Reply (a result, instead of forwarding)</label>
      <textarea
        id={`hold-reply-${hold.id}`}
        class="json"
        rows={3}
        value={reply.value}
        disabled={busy}
        onInput={(event) => reply.value = event.currentTarget.value}
      />
      {problem.value ? <p class="error" role="alert">{problem.value}</p> : null}
      <div class="actions">
        <button type="button" class="primary" disabled={busy} onClick={forward}>Forward</button>
        <button type="button" disabled={busy} onClick={replyWith}>Reply</button>
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={() => answer({ action: "drop" })}
        >
          Drop
        </button>
      </div>
    </>
  );
}
