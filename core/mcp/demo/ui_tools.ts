/** The demo tools with generated UI: an MCP App dashboard, a legacy MCP-UI card and an A2UI form. */
import type { UiToolCounters } from "./types.ts";
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/server";
import { DASHBOARD_HTML, legacyCardHtml } from "./app_html.ts";
import { logToolCall } from "./tools.ts";

/** The dashboard View's resource URI, named by `show_dashboard`'s `_meta.ui.resourceUri`. */
export const DASHBOARD_URI = "ui://lass-demo/dashboard.html";
/** The MIME type MCP Apps requires for a View. */
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";
/** The A2UI v0.9 basic catalog. */
export const A2UI_BASIC_CATALOG_ID =
  "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/** What `show_dashboard` and `dashboard_refresh` return as structured content. */
const dashboardShape = z.object({
  title: z.string(),
  refreshes: z.int(),
  updatedAt: z.string(),
  metrics: z.array(z.object({ label: z.string(), value: z.number() })),
});

/** Registers the UI tools and the dashboard's `ui://` resource. */
export function registerUiTools(server: McpServer, counters: UiToolCounters): void {
  const dashboard = (title: string) => {
    const data = dashboardData(title, counters.refreshes++);
    const lines = data.metrics.map((m) => `${m.label}: ${m.value}`).join(", ");
    return {
      content: [{ type: "text" as const, text: `${data.title} (made-up numbers): ${lines}` }],
      structuredContent: data,
    };
  };

  server.registerTool("show_dashboard", {
    title: "Show the demo dashboard",
    description: "Shows a small dashboard of made-up metrics as an MCP App (interactive HTML). " +
      "Hosts without MCP Apps get the numbers as text.",
    inputSchema: z.object({ title: z.string().optional().describe("Dashboard heading") }),
    outputSchema: dashboardShape,
    annotations: { readOnlyHint: true, openWorldHint: false },
    // The flat "ui/resourceUri" key is deprecated but hosts are still asked to read it.
    _meta: {
      ui: { resourceUri: DASHBOARD_URI, visibility: ["model", "app"] },
      "ui/resourceUri": DASHBOARD_URI,
    },
  }, async ({ title = "Demo dashboard" }, ctx) => {
    await logToolCall(ctx, "show_dashboard: rendering");
    return dashboard(title);
  });

  server.registerTool("dashboard_refresh", {
    title: "Refresh the demo dashboard",
    description: "Returns fresh made-up metrics for the dashboard. Only the dashboard View may " +
      "call it (visibility: app).",
    outputSchema: dashboardShape,
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: { ui: { visibility: ["app"] } },
  }, async (ctx) => {
    await logToolCall(ctx, "dashboard_refresh: called by the app");
    return dashboard("Demo dashboard");
  });

  server.registerResource("dashboard", DASHBOARD_URI, {
    title: "Demo dashboard View",
    description: "The MCP App behind show_dashboard.",
    mimeType: MCP_APP_MIME_TYPE,
    _meta: { ui: { prefersBorder: true } },
  }, (uri) => ({
    contents: [{
      uri: uri.href,
      mimeType: MCP_APP_MIME_TYPE,
      text: DASHBOARD_HTML,
      _meta: { ui: { prefersBorder: true } },
    }],
  }));

  server.registerTool("legacy_ui_card", {
    title: "Show a legacy MCP-UI card",
    description: "Returns a card as a legacy MCP-UI resource (ui:// embedded text/html), the " +
      "format that came before MCP Apps.",
    inputSchema: z.object({
      title: z.string().optional().describe("Card heading"),
      message: z.string().optional().describe("Card text"),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, async ({ title = "Hello from lass-demo", message = "A legacy MCP-UI card." }, ctx) => {
    await logToolCall(ctx, "legacy_ui_card: rendering");
    return {
      content: [
        { type: "text", text: `${title}: ${message}` },
        {
          type: "resource",
          resource: {
            uri: "ui://lass-demo/card",
            mimeType: "text/html",
            text: legacyCardHtml(title, message),
          },
          annotations: { audience: ["user"] },
        },
      ],
    };
  });

  server.registerTool("a2ui_form", {
    title: "Show an A2UI form",
    description: "Returns a small sign-up form as A2UI v0.9 messages (basic catalog), embedded " +
      "as an application/a2ui+json resource for the host to render with its own widgets.",
    inputSchema: z.object({ title: z.string().optional().describe("Form heading") }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, async ({ title = "Sign up" }, ctx) => {
    await logToolCall(ctx, "a2ui_form: rendering");
    // Surface ids must be unique per session: a second createSurface for an id is an error.
    const messages = signUpForm(`demo-form-${++counters.forms}`, title);
    return {
      content: [
        { type: "text", text: `${title}: a form asking for a name and whether to send updates.` },
        {
          type: "resource",
          resource: {
            uri: "a2ui://lass-demo/form",
            mimeType: "application/a2ui+json",
            text: JSON.stringify(messages),
          },
          annotations: { audience: ["user"] },
        },
      ],
    };
  });
}

/** Made-up metrics that change with each refresh. */
function dashboardData(title: string, refreshes: number) {
  return {
    title,
    refreshes,
    updatedAt: new Date().toISOString(),
    metrics: [
      { label: "Requests per minute", value: 120 + (refreshes * 37) % 80 },
      { label: "Error rate (%)", value: (refreshes * 3) % 5 / 2 },
      { label: "Active sessions", value: 3 + refreshes % 4 },
    ],
  };
}

/** The A2UI v0.9 messages of the sign-up form: createSurface, updateComponents, updateDataModel. */
function signUpForm(surfaceId: string, title: string) {
  const name = { path: "/form/name" };
  const subscribe = { path: "/form/subscribe" };
  return [
    {
      version: "v0.9",
      createSurface: { surfaceId, catalogId: A2UI_BASIC_CATALOG_ID, sendDataModel: true },
    },
    {
      version: "v0.9",
      updateComponents: {
        surfaceId,
        components: [
          { id: "root", component: "Column", children: ["title", "name", "subscribe", "submit"] },
          { id: "title", component: "Text", text: title, variant: "h3" },
          { id: "name", component: "TextField", label: "Name", value: name },
          { id: "subscribe", component: "CheckBox", label: "Send me updates", value: subscribe },
          { id: "submitLabel", component: "Text", text: "Submit" },
          {
            id: "submit",
            component: "Button",
            child: "submitLabel",
            variant: "primary",
            action: { event: { name: "submit", context: { name, subscribe } } },
            checks: [{
              condition: { call: "required", args: { value: name } },
              message: "Please enter a name",
            }],
          },
        ],
      },
    },
    {
      version: "v0.9",
      updateDataModel: { surfaceId, path: "/form", value: { name: "Ada", subscribe: false } },
    },
  ];
}
