/**
 * The demo model's user interfaces: Lass's render tool and how to recognise it, the sign-up form
 * sample (as A2UI messages or a compact surface), a UI the user wrote, and the A2UI action a user
 * sends back from a surface. The script (`script.ts`) decides when to use them.
 */
import type { LanguageModelV4FunctionTool } from "@ai-sdk/provider";
import { findJsonArray, findJsonObject, itemEnum, propertyType } from "./args.ts";

/** The A2UI v0.9 basic catalog id. */
const BASIC_CATALOG_ID = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/**
 * The provider options that mark a tool as Lass's own render tool (whatever the workspace names
 * it), so the demo model answers a UI request with it. Keyed by the demo provider's name, which
 * no other provider reads.
 */
export const RENDER_TOOL_MARK = { "lass.demo": { renderTool: true } };

/** A2UI v0.9 messages for a small sign-up form: a heading, an e-mail field and a button. */
export function demoUiSample(): unknown[] {
  const surfaceId = "demo-signup";
  return [
    { version: "v0.9", createSurface: { surfaceId, catalogId: BASIC_CATALOG_ID } },
    {
      version: "v0.9",
      updateComponents: {
        surfaceId,
        components: [
          { id: "root", component: "Column", children: ["heading", "email", "submit"] },
          { id: "heading", component: "Text", text: "Sign up", variant: "h2" },
          { id: "email", component: "TextField", label: "Email", value: { path: "/signup/email" } },
          { id: "submitLabel", component: "Text", text: "Create account" },
          {
            id: "submit",
            component: "Button",
            child: "submitLabel",
            variant: "primary",
            action: { event: { name: "signup", context: { email: { path: "/signup/email" } } } },
          },
        ],
      },
    },
  ];
}

/** An A2UI action the user sent from a surface: `{"version": "v0.9", "action": {...}}`. */
export interface UiAction {
  name: string;
  surfaceId?: string;
  context: Record<string, unknown>;
}

/** The A2UI action message in the user's text (on a line of its own), if there is one. */
export function uiAction(message: string): UiAction | undefined {
  for (const line of message.split("\n").reverse()) {
    const action = findJsonObject(line)?.value.action as Record<string, unknown> | undefined;
    if (typeof action?.name !== "string") continue;
    const context = action.context;
    return {
      name: action.name,
      ...(typeof action.surfaceId === "string" && { surfaceId: action.surfaceId }),
      context: typeof context === "object" && context !== null && !Array.isArray(context)
        ? context as Record<string, unknown>
        : {},
    };
  }
  return undefined;
}

/** Whether the message asks for a user interface. */
export function wantsUi(message: string): boolean {
  return /\b(ui|user interface|forms?|render|cards?|charts?|tables?|buttons?|widgets?)\b/i.test(
    message,
  );
}

/**
 * Whether a tool is a render tool: one Lass marks as its own ({@link RENDER_TOOL_MARK}), or one
 * named `render_ui` (also as `<server>__render_ui`). A tool that merely returns UI (the demo
 * server's `a2ui_form`) is not one: it is called only when the message names it.
 */
function isRenderTool(tool: LanguageModelV4FunctionTool): boolean {
  const mark = tool.providerOptions?.["lass.demo"] as Record<string, unknown> | undefined;
  return mark?.renderTool === true || tool.name === "render_ui" ||
    tool.name.endsWith("__render_ui");
}

/** The render tool for a UI request: Lass's own when it is offered, else one named `render_ui`. */
export function renderToolOf(tools: LanguageModelV4FunctionTool[]) {
  return tools.find((t) => t.providerOptions?.["lass.demo"] !== undefined && isRenderTool(t)) ??
    tools.find(isRenderTool);
}

/**
 * A UI the user wrote in the message: a JSON object with an array `components` or `messages`
 * (taken whole: its title, data, ...), or a JSON array of components (`{"id", "component"}`).
 */
export function givenUi(message: string): Record<string, unknown> | undefined {
  const object = findJsonObject(message)?.value;
  if (object && (Array.isArray(object.components) || Array.isArray(object.messages))) {
    return object;
  }
  const array = findJsonArray(message)?.value;
  const isComponent = (item: unknown) =>
    typeof item === "object" && item !== null &&
    typeof (item as Record<string, unknown>).component === "string";
  if (array && array.length > 0 && array.every(isComponent)) return { components: array };
  return undefined;
}

/**
 * The sign-up form of {@link demoUiSample} as Lass's own render tool takes it: a compact surface
 * (a flat component list with one `root`, a title and the initial data).
 */
export function demoUiInput(): Record<string, unknown> {
  const [, update] = demoUiSample() as { updateComponents: { components: unknown[] } }[];
  return {
    title: "Sign up",
    components: update.updateComponents.components,
    data: { signup: { email: "" } },
  };
}

/**
 * Fixed arguments for a render tool: the UI the user wrote when it has what the tool's schema
 * takes, else the sign-up form sample, as A2UI messages when the schema has an array `messages`,
 * or as a compact surface when it has an array `components`.
 */
export function uiPreset(
  tool: LanguageModelV4FunctionTool,
  message: string,
): { input: Record<string, unknown>; kind: "sample" | "given" } | undefined {
  if (!isRenderTool(tool)) return undefined;
  const given = givenUi(message);
  for (const key of ["components", "messages"]) {
    if (propertyType(tool, key) !== "array") continue;
    if (Array.isArray(given?.[key])) return { input: given, kind: "given" };
    const input = key === "messages" ? { messages: demoUiSample() } : fittedForm(tool);
    return { input, kind: "sample" };
  }
  return undefined;
}

/**
 * The sign-up form for a render tool with `components`, when the workspace allows its components
 * (the tool's `component` enum); otherwise a single Text saying so, when Text is allowed.
 */
function fittedForm(tool: LanguageModelV4FunctionTool): Record<string, unknown> {
  const form = demoUiInput();
  const allowed = itemEnum(tool, "components", "component");
  const used = (form.components as { component: string }[]).map((c) => c.component);
  if (!allowed || used.every((name) => allowed.includes(name)) || !allowed.includes("Text")) {
    return form;
  }
  return {
    title: "Sign up",
    components: [{
      id: "root",
      component: "Text",
      text: "This workspace does not allow the components of the sign-up form, so here is a text.",
    }],
  };
}
