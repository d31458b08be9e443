/**
 * The sidebar's place: beside the page on wide screens, a drawer over it on narrow ones (a
 * phone), and how a waiting request is brought to the user from any page: in the page when it is
 * shown there (a chat's card), else in the sidebar, opened.
 */
import { signal } from "@preact/signals";

/** Screens this narrow show the sidebar as a drawer over the page (as `static/app.css` does). */
const NARROW = matchMedia("(max-width: 760px)");
/** Whether the screen is narrow. */
export const narrow = signal(NARROW.matches);
/** Whether the sidebar is shown: by default beside the page on wide screens, hidden on narrow ones. */
export const sidebarOpen = signal(!NARROW.matches);
NARROW.addEventListener("change", (event) => {
  narrow.value = event.matches;
  sidebarOpen.value = !event.matches;
});

/** Hides the drawer of a narrow screen (the sidebar of a wide one stays as the user left it). */
export function closeDrawer(): void {
  if (narrow.peek()) sidebarOpen.value = false;
}

/** The controls of a waiting request's card that can take the focus. */
export const CARD_CONTROLS = "button:not(:disabled), input:not(:disabled), " +
  "select:not(:disabled), textarea:not(:disabled), a[href]";

/** The key that brings the first waiting request to the focus, from any page. */
export const WAITING_SHORTCUT = "Alt+Shift+W";

/** Whether the user is typing: the focus is in a field that holds text. */
export function typing(): boolean {
  const active = document.activeElement as HTMLElement | null;
  if (!active) return false;
  if (active.isContentEditable) return true;
  if (active instanceof HTMLTextAreaElement) return active.value !== "";
  if (active instanceof HTMLInputElement) {
    return !["button", "submit", "reset", "checkbox", "radio", "range", "color", "file"]
      .includes(active.type) && active.value !== "";
  }
  return active instanceof HTMLSelectElement;
}

/** Scrolls a card into view and puts the focus on its first control. */
export function focusCard(card: Element | null): boolean {
  const control = card?.querySelector<HTMLElement>(CARD_CONTROLS);
  if (!control) return false;
  card!.scrollIntoView({ block: "nearest" });
  control.focus();
  return true;
}

/**
 * Brings the first waiting request (or the one with id `id`) to the user, with the focus on its
 * first control: in the page when it is shown there, else in the sidebar, which opens (the drawer
 * on a phone).
 */
export function revealWaiting(id?: string): void {
  const selector = id === undefined
    ? "section.interaction"
    : `section.interaction[data-interaction-id="${CSS.escape(id)}"]`;
  if (focusCard(document.querySelector(`#page ${selector}`))) return;
  sidebarOpen.value = true;
  // The sidebar draws its cards once it is shown.
  requestAnimationFrame(() => focusCard(document.querySelector(`#sidebar ${selector}`)));
}
