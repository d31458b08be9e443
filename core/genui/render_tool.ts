/** The render tool a workspace offers the model: its name, description, input schema and instructions. */
import type { CatalogComponent } from "../../wire/catalogs.ts";
import { commonTypeOf } from "./catalog.ts";
import type {
  RenderToolDefinition,
  SurfaceProblem,
  SurfaceResult,
  ToolComponent,
  UiExample,
} from "../../wire/genui.ts";
import type { UiOffer } from "./offer.ts";
import { demoUiInput } from "../llm/demo/ui.ts";

type Json = Record<string, unknown>;

/** Properties every component has, explained once instead of per component. */
const COMMON_PROPS = new Set(["accessibility", "weight"]);
/** Renderer state in web_core's schemas, not something a model sets. */
const STATE_PROPS = new Set(["isValid", "validationErrors"]);

/** The sign-up form the instructions show when no example is configured (the demo model's own). */
export const DEFAULT_EXAMPLE = demoUiInput();

/** The common type a union of a literal, a binding and a function call amounts to. */
const DYNAMIC_OF: Record<string, string> = {
  string: "DynamicString",
  number: "DynamicNumber",
  boolean: "DynamicBoolean",
  "list of string": "DynamicStringList",
};

/** The short type of a property schema, e.g. `DynamicString` or `"h1"|"h2"`. */
function typeOf(schema: unknown, depth = 0): string {
  if (typeof schema !== "object" || schema === null) return "any";
  const s = schema as Json;
  const common = commonTypeOf(s);
  if (common) return common;
  if (Array.isArray(s.enum)) return s.enum.map((value) => JSON.stringify(value)).join("|");
  if (s.const !== undefined) return JSON.stringify(s.const);
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) {
    const parts = union.map((part) => typeOf(part, depth));
    if (parts.includes("DataBinding") && parts.includes("FunctionCall") && parts.length === 3) {
      const literal = parts.find((part) => part !== "DataBinding" && part !== "FunctionCall");
      const dynamic = DYNAMIC_OF[literal!];
      if (dynamic) return dynamic;
    }
    return [...new Set(parts)].join(" or ");
  }
  if (s.type === "array") return `list of ${typeOf(s.items, depth)}`;
  if (s.type === "object" && typeof s.properties === "object" && depth < 2) {
    const required = new Set(Array.isArray(s.required) ? s.required as string[] : []);
    const fields = Object.entries(s.properties as Json).map(([key, value]) =>
      `${key}${required.has(key) ? "" : "?"}: ${typeOf(value, depth + 1)}`
    );
    return `{${fields.join(", ")}}`;
  }
  return typeof s.type === "string" ? s.type : "any";
}

/** Signatures by component: a loaded catalog's components stay the same objects until it reloads. */
const signatures = new WeakMap<CatalogComponent, string>();

/** The properties of a component in one line: `text* (DynamicString), variant ("h1"|...)`. */
export function signatureOf(component: CatalogComponent): string {
  let signature = signatures.get(component);
  if (signature === undefined) {
    signature = describeProperties(component);
    signatures.set(component, signature);
  }
  return signature;
}

function describeProperties(component: CatalogComponent): string {
  const properties = (component.schema.properties ?? {}) as Json;
  const required = new Set((component.schema.required ?? []) as string[]);
  const parts = Object.entries(properties)
    .filter(([key]) => !COMMON_PROPS.has(key) && !STATE_PROPS.has(key))
    .map(([key, value]) => {
      const fallback = (value as Json).default;
      const shown = fallback === undefined ? "" : `, default ${JSON.stringify(fallback)}`;
      return `${key}${required.has(key) ? "*" : ""} (${typeOf(value)}${shown})`;
    });
  return `${component.name}: ${parts.length > 0 ? parts.join("; ") : "no properties"}`;
}

/** The first sentence of a description. */
function firstSentence(text: string): string {
  return text.trim().split(/(?<=[.!?])\s/)[0];
}

/** Definitions by offer: an offer is kept while its workspace and catalogs stay the same. */
const definitions = new WeakMap<UiOffer, RenderToolDefinition>();

/** The render tool's definition for an offer, built once per offer (treat it as read-only). */
export function renderToolDefinition(offer: UiOffer): RenderToolDefinition {
  let definition = definitions.get(offer);
  if (!definition) definitions.set(offer, definition = buildDefinition(offer));
  return definition;
}

/** Builds what {@link renderToolDefinition} returns. */
function buildDefinition(offer: UiOffer): RenderToolDefinition {
  const components: ToolComponent[] = [];
  for (const { catalog, components: names } of offer.catalogs) {
    for (const name of names) {
      const component = catalog.components.find((candidate) => candidate.name === name)!;
      components.push({
        name,
        catalogId: catalog.catalogId,
        ...(component.description && { description: component.description }),
        signature: signatureOf(component),
      });
    }
  }
  const names = [...new Set(components.map((component) => component.name))];
  const catalogIds = offer.catalogs.map((offered) => offered.catalog.catalogId);
  const properties: Json = {
    title: { type: "string", description: "A short title shown above the surface" },
    surfaceId: {
      type: "string",
      description: "Optional id of the surface: letters, digits, '_', '-', '.' or ':'",
    },
    ...(catalogIds.length > 1 && {
      catalogId: {
        type: "string",
        enum: catalogIds,
        description: "The catalog of the components; one catalog per surface",
      },
    }),
    components: {
      type: "array",
      minItems: 1,
      description: 'The flat list of components; exactly one has the id "root"',
      items: {
        type: "object",
        properties: {
          id: { type: "string", description: "Unique within the surface" },
          component: { type: "string", enum: names, description: "The component type" },
        },
        required: ["id", "component"],
        additionalProperties: true,
      },
    },
    data: {
      type: "object",
      description: 'The initial data model, which components bind to with {"path": "/pointer"}',
      additionalProperties: true,
    },
  };
  return {
    name: offer.toolName,
    description: offer.description ??
      "Shows the user an interactive UI surface made of A2UI components (forms, cards, lists, " +
        'choices, ...). Pass a flat list of components, one with the id "root", and optional ' +
        "data; the Generative UI instructions list the components and their properties.",
    inputSchema: {
      type: "object",
      properties,
      required: ["components"],
      additionalProperties: false,
    },
    instructions: instructionsOf(offer, components),
    components,
    examples: examplesOf(offer),
  };
}

/** The example inputs of an offer: its own, else the built-in sign-up form when it fits. */
function examplesOf(offer: UiOffer): UiExample[] {
  if (offer.examples.length > 0) return offer.examples;
  return defaultExampleFits(offer) ? [{ prompt: "a sign-up form", input: DEFAULT_EXAMPLE }] : [];
}

/** The system-prompt section: how to describe a surface, the types, the components, examples. */
function instructionsOf(offer: UiOffer, components: ToolComponent[]): string {
  const tool = `\`${offer.toolName}\``;
  const lines = [
    "# Generative UI",
    "",
    `Call ${tool} to show the user a small interactive UI (a form, a card, a list, a choice) ` +
    "when that answers better than words. It is drawn with A2UI v0.9 components from the " +
    "catalog below. After it is shown, say in a sentence what you showed; do not repeat it " +
    "as text.",
    "",
    "How to describe one surface:",
    "- `components` is a flat list. Each item has a unique `id`, its `component` type and that " +
    'type\'s properties inline, e.g. {"id": "title", "component": "Text", "text": "Hello", ' +
    '"variant": "h2"}.',
    '- Exactly one component has the id "root": the top of the tree. Parents refer to their ' +
    "children by id (ComponentId, ChildList); never nest one component inside another.",
    '- `data` is the initial data model. Bind a property to it with {"path": "/json/pointer"}; ' +
    "input components write what the user enters there.",
    "- Give a short `title`; `surfaceId` is optional.",
    '- A Button\'s action comes back to you as a message: {"event": {"name": "submit", ' +
    '"context": {"email": {"path": "/form/email"}}}}.',
    "",
    "Value types:",
    "- DynamicString, DynamicNumber, DynamicBoolean, DynamicStringList: a literal value, " +
    '{"path": "/pointer"} into the data, or a function call {"call": "<function>", "args": ' +
    "{...}}. DynamicValue: any of these.",
    "- ComponentId: the id of another component of the list.",
    '- ChildList: a list of ids, or {"componentId": "<template id>", "path": "/items"} to ' +
    "repeat a template for each item of a data list (inside it, a path without a leading / " +
    "is relative to the item).",
    '- Action: {"event": {"name": "...", "context": {...}}}, sent to you, or {"functionCall": ' +
    '{"call": "openUrl", "args": {"url": "https://..."}}}, run in the browser.',
    '- CheckRule: {"condition": <DynamicBoolean>, "message": "shown when the condition fails"}.',
    "- Every component may also have `accessibility` {label, description}; children of a Row or " +
    "Column may have `weight`.",
  ];
  if (offer.catalogs.length > 1) {
    lines.push(
      "",
      "Several catalogs are offered. Use the components of one catalog per surface, and set " +
        "`catalogId` when the types alone do not tell which.",
    );
  }
  for (const { catalog } of offer.catalogs) {
    const own = components.filter((component) => component.catalogId === catalog.catalogId);
    lines.push("", `Components of ${catalog.name} (${catalog.catalogId}); * marks required:`);
    for (const component of own) {
      const about = component.description ? ` (${firstSentence(component.description)})` : "";
      lines.push(`- ${component.signature}${about}`);
    }
    if (catalog.functions.length > 0) lines.push(`Functions: ${catalog.functions.join(", ")}.`);
  }
  for (const example of examplesOf(offer)) {
    lines.push(
      "",
      example.prompt ? `Example (${example.prompt}):` : "Example:",
      JSON.stringify(example.input),
    );
  }
  lines.push(
    "",
    "An input that cannot be shown comes back as an error listing each problem with a JSON " +
      `pointer into your input; fix them and call ${tool} again.` +
      (offer.repair
        ? " Small mistakes (a missing root, unknown properties, the case of enum values) are " +
          "fixed for you and reported in the result."
        : ""),
  );
  if (offer.instructions) lines.push("", offer.instructions);
  return lines.join("\n");
}

/** Whether the built-in example uses only components the offer's first catalog allows. */
function defaultExampleFits(offer: UiOffer): boolean {
  const first = offer.catalogs[0];
  return first.catalog.source === "standard" &&
    ["Column", "Text", "TextField", "Button"].every((name) => first.components.includes(name));
}

/** A problem as one line the model reads. */
function problemLine(problem: SurfaceProblem): string {
  return `- ${problem.path || "/"} (${problem.code}): ${problem.message}`;
}

/** What the model reads after a render: where it was shown and what was repaired, or the problems. */
export function resultText(result: SurfaceResult, toolName: string): string {
  if (!result.ok) {
    const open = result.problems.filter((problem) => !problem.repaired);
    return [
      `The UI was not shown: ${open.length} problem${open.length === 1 ? "" : "s"}. ` +
      `Fix ${open.length === 1 ? "it" : "them"} and call ${toolName} again.`,
      ...open.map(problemLine),
    ].join("\n");
  }
  const title = result.title ? ` "${result.title}"` : "";
  const lines = [`The UI${title} is shown to the user as the surface ${result.surfaceId}.`];
  if (result.problems.length > 0) {
    lines.push("Repaired before showing it:", ...result.problems.map(problemLine));
  }
  return lines.join("\n");
}
