/**
 * A row of tabs (WAI-ARIA tabs pattern): the selected one is in the Tab order, the arrow keys
 * move between them. The panel is the caller's, with `id={panelId}` and `aria-labelledby` from
 * {@link tabId}.
 */
import type { ComponentChildren } from "preact";
import type { Signal } from "@preact/signals";

/** One tab: its name (the value of `selected`) and what it shows. */
export interface TabItem<Name extends string> {
  name: Name;
  label: ComponentChildren;
}

/** The element id of a tab, for the panel's `aria-labelledby`. */
export function tabId(group: string, name: string): string {
  return `${group}-tab-${name}`;
}

/** The tabs of `group`; `selected` holds the selected tab's name. */
export function TabList<Name extends string>(
  { group, label, panelId, tabs, selected }: {
    group: string;
    label: string;
    panelId: string;
    tabs: TabItem<Name>[];
    selected: Signal<Name>;
  },
) {
  const onKey = (event: KeyboardEvent) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const index = tabs.findIndex((tab) => tab.name === selected.peek());
    const next = tabs[(index + step + tabs.length) % tabs.length].name;
    selected.value = next;
    document.getElementById(tabId(group, next))?.focus();
  };
  return (
    <div class="inspector-tabs" role="tablist" aria-label={label}>
      {tabs.map(({ name, label }) => (
        <button
          key={name}
          id={tabId(group, name)}
          type="button"
          role="tab"
          aria-selected={selected.value === name}
          aria-controls={panelId}
          tabIndex={selected.value === name ? 0 : -1}
          onClick={() => selected.value = name}
          onKeyDown={onKey}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
