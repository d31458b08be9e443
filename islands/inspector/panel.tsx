/**
 * What the inspector's tabs share: the list of items to pick from (with a filter when it is
 * long), and the state of one call to the server (running, its answer, or its error).
 */
import { type Signal, useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { ApiError } from "../api.ts";
import { describeError } from "../state.ts";
import type { ErrorDetail } from "../../wire/errors.ts";

/** One entry of an {@link ItemPicker}. */
export interface PickerItem {
  key: string;
  label: string;
  detail?: string;
  badges?: string[];
}

/** The props of {@link ItemPicker}. */
export interface ItemPickerProps {
  /** What the list holds, e.g. "Tools". */
  label: string;
  items: PickerItem[];
  selected: string | null;
  onSelect: (key: string) => void;
}

/** A list of buttons, the selected one marked; a filter box above lists of more than 8. */
export function ItemPicker({ label, items, selected, onSelect }: ItemPickerProps) {
  const filter = useSignal("");
  const words = filter.value.trim().toLowerCase();
  const shown = words === ""
    ? items
    : items.filter((item) => `${item.label} ${item.detail ?? ""}`.toLowerCase().includes(words));
  return (
    <nav class="item-picker" aria-label={label}>
      {items.length > 8
        ? (
          <input
            type="search"
            aria-label={`Filter ${label.toLowerCase()}`}
            placeholder="Filter…"
            value={filter.value}
            onInput={(event) => filter.value = event.currentTarget.value}
          />
        )
        : null}
      <ul class="item-list">
        {shown.map((item) => (
          <li key={item.key}>
            <button
              type="button"
              aria-current={item.key === selected ? "true" : undefined}
              onClick={() => onSelect(item.key)}
            >
              <span class="item-label">{item.label}</span>
              {item.badges?.map((badge) => <span key={badge} class="badge">{badge}</span>)}
              {item.detail ? <span class="item-detail">{item.detail}</span> : null}
            </button>
          </li>
        ))}
      </ul>
      {shown.length === 0 ? <p class="hint">Nothing matches.</p> : null}
    </nav>
  );
}

/** One call to the server: not started, running, answered, or failed. */
export type CallState<T> =
  | { state: "idle" }
  | { state: "running" }
  | { state: "done"; value: T }
  | { state: "failed"; error: string; details: ErrorDetail[] };

/** A call's state, and `run` to start it (a new call replaces the last answer). */
export function useCall<T>(): [Signal<CallState<T>>, (call: () => Promise<T>) => Promise<void>] {
  const state = useSignal<CallState<T>>({ state: "idle" });
  const run = async (call: () => Promise<T>) => {
    state.value = { state: "running" };
    try {
      state.value = { state: "done", value: await call() };
    } catch (error) {
      state.value = {
        state: "failed",
        error: describeError(error),
        details: error instanceof ApiError ? error.details : [],
      };
    }
  };
  return [state, run];
}

/** A failed call: its sentence, and details that no field showed. */
export function CallError({ error, details }: { error: string; details?: ErrorDetail[] }) {
  // A result that broke the tool's output schema: each error at its path in the result.
  const schema = details?.some((detail) => detail.path.startsWith("structuredContent"));
  return (
    <div class="call-error" role="alert">
      {schema
        ? (
          <p class="output-check is-failed">
            <span aria-hidden="true">✗</span>{" "}
            The structured content does not match the tool's output schema
          </p>
        )
        : null}
      <p class="error">{error}</p>
      {details && details.length > 0
        ? (
          <ul class="error">
            {details.map((detail, i) => (
              <li key={i}>{detail.path ? <code>{detail.path}</code> : null} {detail.message}</li>
            ))}
          </ul>
        )
        : null}
    </div>
  );
}

/** A titled block of a panel. */
export function Block(
  { title, children, class: className }: {
    title: string;
    children: ComponentChildren;
    class?: string;
  },
) {
  return (
    <section class={`inspector-block ${className ?? ""}`.trim()} aria-label={title}>
      <h3>{title}</h3>
      {children}
    </section>
  );
}
