/**
 * Example render-tool inputs for the playground: the ones a workspace's render tool shows the
 * model (read from `GET /api/ui/tool`'s instructions), else a built-in sign-up form.
 */
import { ApiError } from "../api.ts";
import { renderTool } from "./a2ui_api.ts";

/** One example input and what it shows. */
export interface PlaygroundExample {
  label: string;
  input: unknown;
}

/** A small sign-up form: a heading, two bound fields, a check box and a button. */
export const BUILT_IN_EXAMPLE: PlaygroundExample = {
  label: "a sign-up form (built in)",
  input: {
    title: "Sign up",
    components: [
      { id: "root", component: "Column", children: ["heading", "name", "email", "news", "submit"] },
      { id: "heading", component: "Text", text: "Sign up", variant: "h2" },
      { id: "name", component: "TextField", label: "Name", value: { path: "/form/name" } },
      { id: "email", component: "TextField", label: "Email", value: { path: "/form/email" } },
      { id: "news", component: "CheckBox", label: "Send me news", value: { path: "/form/news" } },
      { id: "submitLabel", component: "Text", text: "Create account" },
      {
        id: "submit",
        component: "Button",
        child: "submitLabel",
        variant: "primary",
        action: {
          event: {
            name: "signup",
            context: { name: { path: "/form/name" }, email: { path: "/form/email" } },
          },
        },
      },
    ],
    data: { form: { name: "", email: "", news: false } },
  },
};

/**
 * The examples in render-tool instructions: each `Example (<prompt>):` line followed by the
 * input as one line of JSON.
 */
export function examplesOf(instructions: string): PlaygroundExample[] {
  const lines = instructions.split("\n");
  const examples: PlaygroundExample[] = [];
  lines.forEach((line, i) => {
    const match = /^Example(?: \((.*)\))?:$/.exec(line.trim());
    if (!match) return;
    try {
      const input: unknown = JSON.parse(lines[i + 1] ?? "");
      examples.push({ label: match[1] ?? `example ${examples.length + 1}`, input });
    } catch {
      // Not an input line: the instructions were edited by hand; skip it.
    }
  });
  return examples;
}

/**
 * The examples of a workspace's render tool (the active workspace's when `workspaceId` is
 * empty), then the built-in one (alone when the workspace has no render tool).
 */
export async function loadExamples(workspaceId: string): Promise<PlaygroundExample[]> {
  try {
    return [...examplesOf((await renderTool(workspaceId)).instructions), BUILT_IN_EXAMPLE];
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [BUILT_IN_EXAMPLE];
    throw error;
  }
}
