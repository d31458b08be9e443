/** One example of a catalog component, built from its JSON Schema, for component previews. */
import type { CatalogComponent } from "../../wire/catalogs.ts";
import { commonTypeOf } from "./catalog.ts";

type Json = Record<string, unknown>;

/** A small image that needs no network: a grey 16:9 rectangle. */
const SAMPLE_IMAGE = "data:image/svg+xml;charset=utf-8," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180">' +
      '<rect width="320" height="180" fill="#d0d4da"/></svg>',
  );

/** Properties filled even when optional, because a preview reads better with them. */
const ALWAYS = new Set(["label", "title"]);

/**
 * A compact surface showing one component: the component as the root with every required
 * property (and a label or title when it has one) filled from its schema. Child references get
 * small Text components, `value` properties are bound to `/value` in the data, actions send an
 * event named `preview`.
 */
export function componentExample(component: CatalogComponent): Json {
  const children: Json[] = [];
  const data: Json = {};
  const child = (text: string): string => {
    const id = `child-${children.length + 1}`;
    children.push({ id, component: "Text", text });
    return id;
  };
  const name = component.name;

  const sample = (key: string, schema: Json, depth: number): unknown => {
    const common = commonTypeOf(schema);
    if (common) return commonSample(common, key);
    if (schema.const !== undefined) return schema.const;
    if (schema.default !== undefined) return schema.default;
    if (Array.isArray(schema.enum)) return schema.enum[0];
    const union = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
    if (Array.isArray(union) && union.length > 0) return sample(key, union[0], depth);
    switch (schema.type) {
      case "string":
        return text(key);
      case "number":
      case "integer":
        return key === "max" ? 100 : 0;
      case "boolean":
        return false;
      case "array": {
        const item = (schema.items ?? {}) as Json;
        return [1, 2].map((n) => sample(`${key} ${n}`, item, depth + 1));
      }
      case "object":
        return depth > 3 ? {} : objectOf(schema, depth + 1);
      default:
        return text(key);
    }
  };

  const commonSample = (type: string, key: string): unknown => {
    switch (type) {
      case "ComponentId":
        return child(childText(name, key));
      case "ChildList":
        return [child("Item 1"), child("Item 2")];
      case "Action":
        return { event: { name: "preview", context: {} } };
      case "DynamicNumber":
        return key === "max" ? 100 : 50;
      case "DynamicBoolean":
        return true;
      case "DynamicStringList":
        return [];
      default:
        return text(key);
    }
  };

  const text = (key: string): string => {
    const word = key.replace(/\s\d+$/, "");
    const n = /\s(\d+)$/.exec(key)?.[1] ?? "";
    if (word === "url") {
      if (name === "Image") return SAMPLE_IMAGE;
      return name === "Video" ? "https://example.com/sample.mp4" : "https://example.com/sample.mp3";
    }
    if (word === "value") return name === "DateTimeInput" ? "2026-01-01T09:00:00Z" : "Sample";
    if (word === "text") return `${name} text`;
    const spaced = word.replace(/([a-z])([A-Z])/g, "$1 $2");
    return `${spaced[0]?.toUpperCase() ?? ""}${spaced.slice(1)}${n ? ` ${n}` : ""}`;
  };

  const objectOf = (schema: Json, depth: number, top = false): Json => {
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    const required = new Set((schema.required ?? []) as string[]);
    const out: Json = {};
    for (const [key, property] of Object.entries(properties)) {
      if (!required.has(key) && !(top && ALWAYS.has(key))) continue;
      out[key] = sample(key, property, depth);
    }
    return out;
  };

  const props = objectOf(component.schema, 0, true);
  // A choice needs options to choose from, and starts with the first one chosen.
  if (Array.isArray(props.options)) {
    props.options = props.options.map((option, i) =>
      typeof option === "object" && option !== null
        ? { ...option, label: `Option ${i + 1}`, value: `option-${i + 1}` }
        : option
    );
    if ("value" in props) props.value = ["option-1"];
  }
  // Bind an input's value to the data model, so the preview can be typed into.
  if ("value" in props && commonTypeOf(propertySchema(component, "value"))) {
    data.value = props.value;
    props.value = { path: "/value" };
  }
  return {
    title: name,
    components: [{ id: "root", component: name, ...props }, ...children],
    ...(Object.keys(data).length > 0 && { data }),
  };
}

/** The schema of one property of a component. */
function propertySchema(component: CatalogComponent, key: string): Json | undefined {
  return ((component.schema.properties ?? {}) as Record<string, Json>)[key];
}

/** The text of a child made for a single-child property. */
function childText(component: string, key: string): string {
  if (component === "Button") return "Button";
  if (key === "trigger") return "Open";
  if (key === "content") return `${component} content`;
  if (key.startsWith("tabs")) return `Tab content ${/\d+/.exec(key)?.[0] ?? ""}`.trim();
  return `${component} content`;
}
