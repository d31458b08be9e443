/**
 * Example render-tool inputs for the playground: the ones a workspace's render tool shows the
 * model (`GET /api/ui/tool`'s `examples`), else a one-line text.
 */
import { ApiError } from "../api.ts";
import { renderTool } from "./a2ui_api.ts";

/** One example input and what it shows. */
export interface PlaygroundExample {
  label: string;
  input: unknown;
}

/** What the playground starts from when the workspace has no render tool. */
const BUILT_IN_EXAMPLE: PlaygroundExample = {
  label: "a text (built in)",
  input: { title: "Hello", components: [{ id: "root", component: "Text", text: "Hello" }] },
};

/**
 * The examples of a workspace's render tool (the active workspace's when `workspaceId` is
 * empty); the built-in one when it has none or no render tool.
 */
export async function loadExamples(workspaceId: string): Promise<PlaygroundExample[]> {
  try {
    const { examples } = await renderTool(workspaceId);
    return examples.length === 0 ? [BUILT_IN_EXAMPLE] : examples.map((example, i) => ({
      label: example.prompt ?? `example ${i + 1}`,
      input: example.input,
    }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [BUILT_IN_EXAMPLE];
    throw error;
  }
}
