/**
 * Accessible names for the basic catalog's inputs. Its widgets draw a label next to the control
 * without tying them together (no `for`, no wrapping), so screen readers and `getByLabel` find
 * no name; and they ignore the component's `accessibility` ({label, description}). This names
 * each control after its `accessibility.label`, else its visible label, sets its description,
 * and keeps doing so as the surface changes.
 */

/**
 * Per widget: where its visible label is (none: the widget's own markup names the control, so
 * only an `accessibility.label` is set), and the controls it names.
 */
const RULES: { widget: string; label?: string; controls: string; role?: string }[] = [
  { widget: "a2ui-basic-textfield", label: ":scope > label", controls: "input, textarea" },
  { widget: "a2ui-slider", label: ".a2ui-slider-label", controls: "input" },
  { widget: "a2ui-datetimeinput", label: ".a2ui-date-time-label", controls: "input" },
  {
    widget: "a2ui-choicepicker",
    label: ":scope > label",
    controls: ":scope > .a2ui-choice-picker",
    role: "group",
  },
  { widget: "a2ui-checkbox", controls: "input" },
  { widget: "a2ui-basic-button", controls: ":scope > button" },
];

/** The resolved `accessibility` of a widget's component (its controller's props). */
function accessibilityOf(widget: Element): { label?: string; description?: string } {
  const props = (widget as { controller?: { props?: { accessibility?: unknown } } }).controller
    ?.props;
  const value = props?.accessibility as Record<string, unknown> | undefined;
  const text = (field: unknown) =>
    typeof field === "string" && field.trim() ? field.trim() : undefined;
  return { label: text(value?.label), description: text(value?.description) };
}

/** Sets or removes an attribute, touching the element only when it changes. */
function setAttribute(element: Element, name: string, value: string | undefined): void {
  if (value === undefined) {
    if (element.hasAttribute(name)) element.removeAttribute(name);
  } else if (element.getAttribute(name) !== value) {
    element.setAttribute(name, value);
  }
}

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
      const own = accessibilityOf(widget);
      const shown = rule.label
        ? widget.querySelector(rule.label)?.textContent?.trim() || undefined
        : undefined;
      const text = own.label ?? shown;
      if (!text && !own.description) continue;
      const controls = [...widget.querySelectorAll(rule.controls)].filter((control) =>
        control.closest(rule.widget) === widget
      );
      for (const control of controls) {
        if (text) setAttribute(control, "aria-label", text + suffixOf(control, controls.length));
        setAttribute(control, "aria-description", own.description);
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
