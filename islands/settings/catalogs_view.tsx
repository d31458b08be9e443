/** What a catalog preview shows: its components with their properties, functions and errors. */
import { signal, useSignal } from "@preact/signals";
import type { ComponentType } from "preact";
import type { CatalogView } from "../../wire/catalogs.ts";
import { Problems } from "./skills_preview.tsx";

/** A property's type in a few characters: `DynamicString`, `"a"|"b"`, `number`. */
function typeOf(schema: unknown): string {
  if (!schema || typeof schema !== "object") return "any";
  const property = schema as Record<string, unknown>;
  if (typeof property.$ref === "string") return property.$ref.split("/").pop() ?? "ref";
  if (Array.isArray(property.enum)) return property.enum.map((v) => JSON.stringify(v)).join("|");
  if (property.const !== undefined) return JSON.stringify(property.const);
  if (typeof property.type === "string") {
    return property.type === "array" ? `${typeOf(property.items)}[]` : property.type;
  }
  if (Array.isArray(property.oneOf) || Array.isArray(property.anyOf)) return "one of several";
  return "any";
}

/** The properties of a component's schema, required ones marked with `*`. */
function Properties({ schema }: { schema: Record<string, unknown> }) {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? schema.required as string[] : []);
  const names = Object.keys(properties);
  if (names.length === 0) return <span class="hint">no properties</span>;
  return (
    <span class="component-props">
      {names.map((name, index) => (
        <span key={name}>
          {index > 0 ? ", " : ""}
          <code>{name}{required.has(name) ? "*" : ""}</code>{" "}
          <span class="hint">{typeOf(properties[name])}</span>
        </span>
      ))}
    </span>
  );
}

const SOURCES: Record<CatalogView["source"], string> = {
  standard: "built in",
  path: "file",
  url: "URL",
  inline: "inline",
};

/** A loaded catalog: its id, where it came from, its errors, components and functions. */
export function CatalogPanel({ catalog, label }: { catalog: CatalogView; label?: string }) {
  return (
    <section class="preview-panel catalog-panel" aria-label={label ?? `Catalog ${catalog.name}`}>
      <header class="preview-head">
        <strong>{catalog.name}</strong>
        <span class="badge">{SOURCES[catalog.source]}</span>
        {catalog.errors.length > 0
          ? (
            <span class="badge badge-error">
              {catalog.errors.length} {catalog.errors.length === 1 ? "error" : "errors"}
            </span>
          )
          : null}
      </header>
      {catalog.catalogId
        ? (
          <p class="hint">
            Catalog id <code>{catalog.catalogId}</code>
          </p>
        )
        : null}
      {catalog.location
        ? (
          <p class="hint">
            From <code>{catalog.location}</code>
          </p>
        )
        : null}
      <Problems errors={catalog.errors} />
      {catalog.components.length === 0
        ? <p class="hint">No usable components.</p>
        : (
          <table class="components">
            <caption>
              {catalog.components.length}{" "}
              {catalog.components.length === 1 ? "component" : "components"}
            </caption>
            <thead>
              <tr>
                <th scope="col">Component</th>
                <th scope="col">Properties (* required)</th>
              </tr>
            </thead>
            <tbody>
              {catalog.components.map((component) => (
                <tr key={component.name}>
                  <th scope="row">
                    {component.name}
                    {component.description
                      ? <span class="component-description">{component.description}</span>
                      : null}
                  </th>
                  <td>
                    <Properties schema={component.schema} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      {catalog.functions.length > 0
        ? (
          <p class="catalog-functions">
            <strong>Functions:</strong> {catalog.functions.join(", ")}
          </p>
        )
        : null}
    </section>
  );
}

type PreviewComponent = ComponentType<{ catalogId: string }>;

/** The rendered-preview module, loaded once on first use (it stays out of the settings chunk). */
const rendered = signal<PreviewComponent | null>(null);
const renderedError = signal<string | null>(null);
let loading: Promise<void> | undefined;

function loadRendered(): Promise<void> {
  loading ??= import("../genui/catalog_preview.tsx").then(
    (module) => void (rendered.value = module.default),
    (error) => {
      loading = undefined;
      renderedError.value = `The component previews could not be loaded: ${error}`;
    },
  );
  return loading;
}

/** Each component of a saved catalog drawn by the renderer, behind a button. */
export function RenderedPreviews({ catalogId }: { catalogId: string }) {
  const shown = useSignal(false);
  const Preview = rendered.value;
  return (
    <div class="rendered-previews">
      <button
        type="button"
        aria-expanded={shown.value}
        onClick={() => {
          shown.value = !shown.value;
          if (shown.value) void loadRendered();
        }}
      >
        {shown.value ? "Hide rendered components" : "Show rendered components"}
      </button>
      {shown.value
        ? Preview
          ? <Preview catalogId={catalogId} />
          : renderedError.value
          ? <p class="error" role="alert">{renderedError.value}</p>
          : <p class="loading">Loading…</p>
        : null}
    </div>
  );
}
