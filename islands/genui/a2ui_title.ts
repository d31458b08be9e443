/** The title of an A2UI result, drawn once: not when the surface's own heading says it. */

/**
 * Whether a surface's own heading already says `title` (a Text with a heading variant), so the
 * card does not show the same title twice.
 */
export function headingRepeats(messages: unknown, title: string): boolean {
  const wanted = title.trim().toLowerCase();
  if (!Array.isArray(messages) || wanted === "") return false;
  return messages.some((message) => {
    const components = (message as { updateComponents?: { components?: unknown } })
      ?.updateComponents?.components;
    return Array.isArray(components) && components.some((component) => {
      const { text, variant } = (component ?? {}) as { text?: unknown; variant?: unknown };
      return typeof variant === "string" && /^h[1-6]$/.test(variant) &&
        typeof text === "string" && text.trim().toLowerCase() === wanted;
    });
  });
}
