/**
 * Accessible names for the basic catalog's inputs. Its widgets draw a label next to the control
 * without tying them together (no `for`, no wrapping), so screen readers and `getByLabel` find
 * no name; this names each control after its label and keeps doing so as the surface changes.
 */

/** Per widget: where its label is, and the controls it names. */
const RULES: { widget: string; label: string; controls: string; role?: string }[] = [
  { widget: "a2ui-basic-textfield", label: ":scope > label", controls: "input, textarea" },
  { widget: "a2ui-slider", label: ".a2ui-slider-label", controls: "input" },
  { widget: "a2ui-datetimeinput", label: ".a2ui-date-time-label", controls: "input" },
  {
    widget: "a2ui-choicepicker",
    label: ":scope > label",
    controls: ":scope > .a2ui-choice-picker",
    role: "group",
  },
];

/** The part of the name that tells a date from a time input of one DateTimeInput. */
function suffixOf(control: Element, count: number): string {
  if (count < 2) return "";
  const type = control.getAttribute("type");
  return type === "date" ? " (date)" : type === "time" ? " (time)" : "";
}

/** Names the controls under `root` after their widgets' labels. */
export function labelControls(root: ParentNode): void {
  for (const rule of RULES) {
    for (const widget of root.querySelectorAll(rule.widget)) {
      const text = widget.querySelector(rule.label)?.textContent?.trim();
      if (!text) continue;
      const controls = [...widget.querySelectorAll(rule.controls)].filter((control) =>
        control.closest(rule.widget) === widget
      );
      for (const control of controls) {
        const name = text + suffixOf(control, controls.length);
        if (control.getAttribute("aria-label") !== name) control.setAttribute("aria-label", name);
        if (rule.role && control.getAttribute("role") !== rule.role) {
          control.setAttribute("role", rule.role);
        }
      }
    }
  }
}

/** Keeps naming the controls of a surface element's shadow root; returns the stop function. */
export function watchLabels(surface: Element): () => void {
  const root = surface.shadowRoot;
  if (!root) return () => {};
  let scheduled = false;
  const run = () => {
    scheduled = false;
    labelControls(root);
  };
  const observer = new MutationObserver(() => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(run);
  });
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  run();
  return () => observer.disconnect();
}
