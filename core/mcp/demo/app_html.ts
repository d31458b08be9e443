/** The HTML the demo server ships: the MCP Apps dashboard View and the legacy MCP-UI card. */

/**
 * The dashboard View (`ui://lass-demo/dashboard.html`). Self-contained (the default MCP Apps CSP
 * allows no outside origin) and without the ext-apps SDK: it speaks the JSON-RPC 2.0 postMessage
 * protocol of MCP Apps 2026-01-26 itself. `ui/initialize`, then `ui/notifications/initialized`;
 * it shows each `ui/notifications/tool-result` and its button calls the app-only tool
 * `dashboard_refresh` through `tools/call`. Host theme variables are used with fallbacks.
 */
export const DASHBOARD_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lass demo dashboard</title>
<style>
  :root { color-scheme: light dark; }
  body {
    margin: 0; padding: 12px;
    font-family: var(--font-sans, system-ui, sans-serif);
    background: var(--color-background-primary, Canvas);
    color: var(--color-text-primary, CanvasText);
  }
  h1 { font-size: var(--font-heading-sm-size, 1.1rem); margin: 0 0 8px; }
  dl { display: grid; grid-template-columns: 1fr auto; gap: 4px 16px; margin: 0 0 12px; }
  dd { margin: 0; text-align: right; font-family: var(--font-mono, ui-monospace, monospace); }
  button {
    font: inherit; color: inherit; background: transparent; cursor: pointer; padding: 4px 12px;
    border: var(--border-width-regular, 1px) solid var(--color-border-primary, GrayText);
    border-radius: var(--border-radius-md, 6px);
  }
  #status { margin: 8px 0 0; font-size: 0.85em; color: var(--color-text-secondary, GrayText); }
</style>
</head>
<body>
<h1 id="title">Demo dashboard</h1>
<dl id="metrics"></dl>
<button id="refresh" type="button" disabled>Refresh</button>
<p id="status">Connecting…</p>
<script>
(() => {
  "use strict";
  const host = window.parent;
  const pending = new Map();
  let nextId = 1;
  const byId = (id) => document.getElementById(id);
  const status = (text) => { byId("status").textContent = text; };

  const send = (message) => host.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const notify = (method, params) => send({ method, params });
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    send({ id, method, params });
  });

  function applyHostContext(context) {
    if (!context) return;
    const root = document.documentElement;
    if (context.theme) root.style.colorScheme = context.theme;
    const variables = (context.styles && context.styles.variables) || {};
    for (const [name, value] of Object.entries(variables)) {
      if (value) root.style.setProperty(name, value);
    }
  }

  function show(result) {
    const text = (result.content || []).filter((c) => c.type === "text").map((c) => c.text).join(" ");
    const data = result.structuredContent;
    if (result.isError || !data) return status(text || "The tool returned no data.");
    byId("title").textContent = data.title;
    const rows = [];
    for (const metric of data.metrics) {
      const term = document.createElement("dt");
      term.textContent = metric.label;
      const value = document.createElement("dd");
      value.textContent = String(metric.value);
      rows.push(term, value);
    }
    byId("metrics").replaceChildren(...rows);
    status("Refresh #" + data.refreshes + " at " + data.updatedAt);
    notify("ui/notifications/size-changed", { height: document.documentElement.scrollHeight });
  }

  window.addEventListener("message", (event) => {
    const message = event.data;
    if (event.source !== host || !message || message.jsonrpc !== "2.0") return;
    if (message.method === undefined) {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (!waiter) return;
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
      return;
    }
    switch (message.method) {
      case "ui/notifications/tool-result": return show(message.params);
      case "ui/notifications/tool-cancelled": return status("The tool call was cancelled.");
      case "ui/notifications/host-context-changed": return applyHostContext(message.params);
      case "ui/resource-teardown":
      case "ping": return send({ id: message.id, result: {} });
      default:
        if (message.id === undefined) return;
        send({ id: message.id, error: { code: -32601, message: "Unknown method " + message.method } });
    }
  });

  byId("refresh").addEventListener("click", () => {
    byId("refresh").disabled = true;
    status("Refreshing…");
    request("tools/call", { name: "dashboard_refresh", arguments: {} })
      .then(show, (error) => status("Refresh failed: " + error.message))
      .finally(() => { byId("refresh").disabled = false; });
  });

  request("ui/initialize", {
    appInfo: { name: "lass-demo-dashboard", version: "1.0.0" },
    appCapabilities: {},
    protocolVersion: "2026-01-26",
  }).then((result) => {
    applyHostContext(result.hostContext);
    notify("ui/notifications/initialized", {});
    byId("refresh").disabled = false;
    status("Waiting for the tool result…");
  }, (error) => status("Could not connect to the host: " + error.message));
})();
</script>
</body>
</html>
`;

/**
 * A legacy MCP-UI card (raw HTML, shown by hosts in a `srcdoc` iframe). Its button sends the
 * legacy `{type: "tool", payload: {toolName, params}, messageId}` action asking for `echo`.
 */
export function legacyCardHtml(title: string, message: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<style>
  body { margin: 0; font-family: system-ui, sans-serif; }
  .card { border: 1px solid #c8c8d0; border-radius: 8px; padding: 12px 16px; }
  h2 { margin: 0 0 6px; font-size: 1.1rem; }
  p { margin: 0 0 10px; }
</style>
</head>
<body>
<div class="card">
  <h2>${escapeHtml(title)}</h2>
  <p>${escapeHtml(message)}</p>
  <button id="echo" type="button">Ask the host to call echo</button>
  <p id="reply"></p>
</div>
<script>
  const post = (message) => window.parent.postMessage(message, "*");
  document.getElementById("echo").addEventListener("click", () => post({
    type: "tool",
    payload: { toolName: "echo", params: { text: "Hello from the legacy card" } },
    messageId: "echo-" + Date.now(),
  }));
  window.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.type !== "ui-message-response") return;
    const payload = data.payload || {};
    document.getElementById("reply").textContent = payload.error
      ? "Error: " + JSON.stringify(payload.error)
      : "Host replied: " + JSON.stringify(payload.response);
  });
  post({ type: "ui-lifecycle-iframe-ready" });
  post({ type: "ui-size-change", payload: { height: document.documentElement.scrollHeight } });
</script>
</body>
</html>
`;
}

/** Escapes text for HTML element content. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.codePointAt(0)};`);
}
