/** `GET /oauth/callback`: where the browser lands after signing in to a tool server (no token). */
import type { Routes } from "./context.ts";
import { PAGE_HEADERS, respond } from "./http.ts";

/** What the page tells its opener (the Lass UI) through `postMessage`. */
export interface SignInMessage {
  type: "lass.oauth";
  ok: boolean;
  serverId?: string;
  status?: string;
}

/** OAuth routes. */
export const oauthRoutes: Routes = {
  "/oauth/callback": {
    GET: async (req, { service, url }) => {
      // A HEAD (a link preview, a prefetch) must not spend the one-time state.
      if (req.method === "HEAD") return page(200, "Lass sign-in", [], undefined);
      const result = await service.mcp.completeSignIn(url.searchParams);
      if (result.ok) {
        const state = result.state;
        const name = state?.name ?? result.serverId;
        const lines = [`Lass is signed in to ${name}.`];
        if (state && state.status !== "connected") {
          lines.push(`The server is ${state.status} now; Lass shows why.`);
        }
        lines.push("You can close this window.");
        return page(200, "Signed in", lines, {
          type: "lass.oauth",
          ok: true,
          serverId: result.serverId,
          ...(state && { status: state.status }),
        });
      }
      // Never the authorization server's words (error, error_description): they are not ours.
      const [status, lines] = result.reason === "unknown-state"
        ? [400, [
          "This sign-in link is unknown or has expired.",
          "Start the sign-in again in Lass.",
        ]]
        : result.reason === "denied"
        ? [400, ["The sign-in was not completed.", "Start it again in Lass."]]
        : result.reason === "removed"
        ? [410, [
          "This tool server was removed from Lass's configuration during the sign-in.",
          "Nothing was stored. Add the server again to sign in to it.",
        ]]
        : [502, [
          "Lass could not complete the sign-in.",
          "The tool server's log in Lass says why.",
        ]];
      return page(status as number, "Sign-in failed", lines as string[], {
        type: "lass.oauth",
        ok: false,
        ...(result.serverId && { serverId: result.serverId }),
      });
    },
  },
};

/**
 * A small self-contained page: escaped text, one inline script allowed by its nonce that posts
 * `message` to the window that opened it (same origin only), and headers that forbid everything
 * else (no framing, no caching, no referrer: the URL carries the code).
 */
function page(
  status: number,
  title: string,
  lines: string[],
  message: SignInMessage | undefined,
): Response {
  const nonce = randomNonce();
  const data = JSON.stringify(message ?? null).replace(/</g, "\\u003c");
  const script = message
    ? `<script nonce="${nonce}">const m=${data};` +
      `if(window.opener){window.opener.postMessage(m,location.origin);}</script>`
    : "";
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">body{font:16px/1.5 system-ui,sans-serif;margin:3rem auto;max-width:32rem;padding:0 1rem}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n")}
${script}
</body>
</html>
`;
  return respond(body, {
    status,
    type: "text/html; charset=utf-8",
    headers: {
      ...PAGE_HEADERS,
      "content-security-policy": `default-src 'none'; script-src 'nonce-${nonce}'; ` +
        `style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    },
  });
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
