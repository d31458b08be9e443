/** Copying text to the clipboard, with a fallback where the Clipboard API is refused. */

/**
 * Copies `text` with the Clipboard API; where that is refused, selects `shown` (the element that
 * shows the text) and asks the browser to copy the selection. Returns whether either worked; when
 * neither did, the text stays selected for Ctrl+C.
 */
export async function copyText(text: string, shown?: HTMLElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Not a secure context, or the permission was refused: fall back to the selection.
  }
  if (!shown) return false;
  const range = document.createRange();
  range.selectNodeContents(shown);
  const selection = getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}
