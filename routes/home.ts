/** `GET /`: the page the startup URL opens; the web UI replaces it. */
import type { Routes } from "./context.ts";
import { PAGE_HEADERS, respond } from "./http.ts";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Home routes. */
export const homeRoutes: Routes = {
  "/": {
    GET: (_req, { service, version }) => {
      const { config } = service.config;
      const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">
<title>Lass</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem}
code{font-size:.9em}</style></head>
<body><h1>Lass ${escapeHtml(version)}</h1>
<p>The Local Agent Sandbox Service is running with the config <code>${
        escapeHtml(service.config.path)
      }</code>: ${config.llms.length} model profiles, ${config.mcpServers.length} tool servers, ${config.workspaces.length} workspaces.</p>
<p>This build serves the JSON API (see the README's API reference); send the token of the startup
URL in the <code>x-service-token</code> header.</p></body></html>`;
      return respond(html, {
        type: "text/html; charset=utf-8",
        headers: {
          ...PAGE_HEADERS,
          "content-security-policy":
            "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
        },
      });
    },
  },
};
