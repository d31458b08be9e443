/** The demo server's resources: a readme, a JSON config and three notes behind a URI template. */
import {
  type McpServer,
  ResourceNotFoundError,
  ResourceTemplate,
} from "@modelcontextprotocol/server";
import { VERSION } from "../../version.ts";

const README = `# lass-demo

The built-in demo tool server of Lass. Everything runs locally with made-up data.

- Tools: add, echo, get_weather, current_time, random_number, slow_count, fail, ask_user,
  open_url, summarize_with_model, list_roots, long_report (a task), show_dashboard,
  dashboard_refresh, legacy_ui_card, a2ui_form
- Prompts: code_review, plan_trip
- Resources: demo://readme, demo://config.json, demo://notes/{id}
`;

const NOTES = new Map([
  ["welcome", { title: "Welcome", text: "Welcome to the Lass demo notes." }],
  ["groceries", { title: "Groceries", text: "Milk, bread, three apples, coffee." }],
  ["ideas", { title: "Ideas", text: "Try show_dashboard, then press Refresh inside it." }],
]);

/** Registers `demo://readme`, `demo://config.json` and the `demo://notes/{id}` template. */
export function registerDemoResources(server: McpServer): void {
  server.registerResource("readme", "demo://readme", {
    title: "Read me",
    description: "What the demo server offers.",
    mimeType: "text/markdown",
  }, (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: README }] }));

  server.registerResource("config", "demo://config.json", {
    title: "Demo configuration",
    description: "A small JSON document.",
    mimeType: "application/json",
  }, (uri) => ({
    contents: [{
      uri: uri.href,
      mimeType: "application/json",
      text: JSON.stringify({ name: "lass-demo", version: VERSION, units: "metric", notes: 3 }),
    }],
  }));

  const ids = [...NOTES.keys()];
  const notes = new ResourceTemplate("demo://notes/{id}", {
    list: () => ({
      resources: [...NOTES].map(([id, note]) => ({
        uri: `demo://notes/${id}`,
        name: `note-${id}`,
        title: note.title,
        mimeType: "text/plain",
      })),
    }),
    complete: { id: (value) => ids.filter((id) => id.startsWith(value)) },
  });
  server.registerResource("note", notes, {
    title: "Notes",
    description: `A short note by id: ${ids.join(", ")}.`,
    mimeType: "text/plain",
  }, (uri, { id }) => {
    const note = typeof id === "string" ? NOTES.get(id) : undefined;
    if (!note) {
      throw new ResourceNotFoundError(
        uri.href,
        `No note "${id}"; the notes are ${ids.join(", ")}.`,
      );
    }
    return { contents: [{ uri: uri.href, mimeType: "text/plain", text: note.text }] };
  });
}
