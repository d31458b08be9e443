/**
 * The service token in the browser: taken from the startup URL's `?token=`, kept in this tab's
 * `sessionStorage`, and removed from the address bar (so it is not in history or screenshots).
 * The server's token page (`routes/home.ts`) reads the same key to retry after a reload.
 */

/** The `sessionStorage` key of the token. */
export const TOKEN_KEY = "lass.token";

/** Moves a `?token=` from the URL into `sessionStorage`; returns the token this tab holds. */
export function takeToken(): string | null {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get("token");
  if (fromUrl) {
    try {
      sessionStorage.setItem(TOKEN_KEY, fromUrl);
    } catch {
      // Storage disabled: the token still works for this page view.
      return fromUrl;
    }
    url.searchParams.delete("token");
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  }
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? fromUrl;
  } catch {
    return fromUrl;
  }
}

/** Forgets the token (it was refused: Lass restarted with a new one). */
export function forgetToken(): void {
  try {
    sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // Nothing stored.
  }
}
