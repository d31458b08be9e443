/**
 * A tool server's drift from its pins (the state's `drift`): what was added, removed or changed
 * since pinned, with a word diff of each description and a JSON diff of the rest, and Accept.
 * The settings show it compact (one line), the inspector in full.
 */
import { useSignal } from "@preact/signals";
import type { ToolServerState } from "../wire/tool_servers.ts";
import type { JsonChange, PinChange, WordPart } from "../wire/pinning.ts";
import { describeError } from "./state.ts";
import { mcpApi } from "./tool_servers.ts";

const KINDS = { tool: "tool", prompt: "prompt", resourceTemplate: "resource template" };

/** A description's word diff: removed words struck through, added ones marked. */
function WordDiff({ parts }: { parts: WordPart[] }) {
  return (
    <p class="word-diff">
      {parts.map((part, i) =>
        part.op === "add"
          ? <ins key={i}>{part.text}</ins>
          : part.op === "del"
          ? <del key={i}>{part.text}</del>
          : <span key={i}>{part.text}</span>
      )}
    </p>
  );
}

const SIGNS = { add: "+", remove: "−", replace: "~" };

/** One JSON change: its path and the value before and after. */
function jsonText(change: JsonChange): string {
  const value = (v: unknown) => JSON.stringify(v);
  return change.op === "replace"
    ? `${value(change.before)} → ${value(change.after)}`
    : value(change.op === "add" ? change.after : change.before);
}

function Change({ change }: { change: PinChange }) {
  return (
    <li class={`drift-change drift-${change.change}`}>
      <span>
        {KINDS[change.kind]} <code>{change.name}</code> {change.change}
      </span>
      {change.description ? <WordDiff parts={change.description} /> : null}
      {change.schema?.length
        ? (
          <ul class="json-diff">
            {change.schema.map((c) => (
              <li key={`${c.op}${c.path}`} class={`json-${c.op}`}>
                {SIGNS[c.op]} <code>{c.path || "/"}</code>: <code>{jsonText(c)}</code>
              </li>
            ))}
          </ul>
        )
        : null}
    </li>
  );
}

/** The words of a drift's count: `1 definition changed since pinned`. */
function headline(count: number): string {
  return `${count} definition${count === 1 ? "" : "s"} changed since pinned`;
}

/** The Accept button (and its error), which makes what the server offers now its pins. */
function Accept({ state }: { state: ToolServerState }) {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const accept = async () => {
    busy.value = true;
    error.value = null;
    try {
      await mcpApi.acceptPins(state.id);
    } catch (failure) {
      error.value = describeError(failure);
    } finally {
      busy.value = false;
    }
  };
  return (
    <>
      <button
        type="button"
        class="primary"
        disabled={busy.value}
        aria-label={`Accept the changes of ${state.name}`}
        onClick={accept}
      >
        Accept
      </button>
      {error.value ? <span class="error" role="alert">{error.value}</span> : null}
    </>
  );
}

/** A server's drift, or nothing when it matches its pins. */
export function DriftBanner(
  { state, compact = false }: { state: ToolServerState; compact?: boolean },
) {
  const drift = state.drift;
  if (!drift) return null;
  const where = drift.source === "lock" ? "lass.lock.json" : "the first definitions seen";
  const blocked = drift.pinning === "block"
    ? "Changed tools are left out of chat until you accept them."
    : "";
  if (compact) {
    const names = drift.changes.map((c) => `${c.name} ${c.change}`).join(", ");
    return (
      <span class="drift-banner compact" role="alert">
        <strong>{headline(drift.changes.length)}</strong> ({names}). {blocked}
        <Accept state={state} />
      </span>
    );
  }
  return (
    <section class="drift-banner" role="alert" aria-label={`Changes of ${state.name}`}>
      <p>
        <strong>{headline(drift.changes.length)}</strong> (compared with {where}
        {drift.version ? `; ${drift.version.pinned ?? "?"} → ${drift.version.now ?? "?"}` : ""}).
        {" "}
        {blocked}
      </p>
      <ul class="drift-changes">
        {drift.changes.map((change) => (
          <Change key={`${change.kind}:${change.name}`} change={change} />
        ))}
      </ul>
      <Accept state={state} />
    </section>
  );
}
