/**
 * Reading a JSON Schema loosely, for forms generated from it: local `$ref`s followed, `null`
 * taken out of types and unions, the kind of widget a value needs, and the values a form starts
 * with (the schema's defaults).
 */

/** A JSON Schema, read loosely. */
export type Schema = Record<string, unknown>;

/** One choice of an enum. */
export interface Option {
  value: unknown;
  label: string;
}

/** The widget a value needs. */
export type FieldKind =
  | "text"
  | "email"
  | "url"
  | "date"
  | "datetime"
  | "number"
  | "boolean"
  | "select"
  | "multi"
  | "object"
  | "array"
  | "json";

const num = (value: unknown) => typeof value === "number" ? value : undefined;
const str = (value: unknown) => typeof value === "string" ? value : undefined;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The target of a local `$ref` (`#/$defs/x`, `#/definitions/x`). */
function refTarget(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(1).split("/").filter(Boolean)) {
    node = isRecord(node) ? node[part.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined;
  }
  return isRecord(node) ? node : undefined;
}

/** A schema with local references followed and `null` taken out of its types and unions. */
export function normalize(schema: Schema, root: Schema = schema): Schema {
  let current = schema;
  for (let depth = 0; depth < 10 && typeof current.$ref === "string"; depth++) {
    const target = refTarget(root, current.$ref);
    if (!target) break;
    const { $ref: _, ...rest } = current;
    current = { ...target, ...rest };
  }
  if (Array.isArray(current.type)) {
    const types = current.type.filter((type) => type !== "null");
    if (types.length === 1) current = { ...current, type: types[0] };
  }
  const union = current.anyOf ?? current.oneOf;
  if (Array.isArray(union) && !optionsOf(current)) {
    const choices = (union as Schema[]).filter((choice) => choice.type !== "null");
    if (choices.length === 1) {
      const { anyOf: _a, oneOf: _o, ...rest } = current;
      current = normalize({ ...choices[0], ...rest }, root);
    }
  }
  return current;
}

/** The choices of an enum, a `const`, or a union of `const`s. */
export function optionsOf(schema: Schema): Option[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => ({ value, label: String(names[i] ?? value) }));
  }
  if ("const" in schema) return [{ value: schema.const, label: String(schema.const) }];
  const choices = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (Array.isArray(choices) && choices.length > 0 && choices.every((c) => "const" in c)) {
    return choices.map((choice) => ({
      value: choice.const,
      label: str(choice.title) ?? String(choice.const),
    }));
  }
  return undefined;
}

/** The widget a (normalized) schema needs. */
export function kindOf(schema: Schema, root: Schema): FieldKind {
  if (optionsOf(schema)) return "select";
  const type = schema.type;
  if (type === "array") {
    return optionsOf(normalize((schema.items ?? {}) as Schema, root)) ? "multi" : "array";
  }
  if (type === "object" || (type === undefined && isRecord(schema.properties))) {
    return isRecord(schema.properties) ? "object" : "json";
  }
  if (type === "boolean") return "boolean";
  if (type === "number" || type === "integer") return "number";
  if (type !== "string") return "json";
  const formats: Record<string, FieldKind> = {
    email: "email",
    uri: "url",
    date: "date",
    "date-time": "datetime",
  };
  return formats[str(schema.format) ?? ""] ?? "text";
}

/** The value a form starts with: the schema's defaults, nested objects included. */
export function initialValue(schema: Schema, root: Schema = schema): unknown {
  const resolved = normalize(schema, root);
  if ("default" in resolved) return structuredClone(resolved.default);
  if (kindOf(resolved, root) !== "object") return undefined;
  const value: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(resolved.properties as Record<string, Schema>)) {
    const initial = initialValue(property, root);
    if (initial !== undefined) value[name] = initial;
  }
  return Object.keys(value).length > 0 ? value : undefined;
}

/** A new list item: its default, else an empty value of its type. */
export function newItem(schema: Schema, root: Schema): unknown {
  const initial = initialValue(schema, root);
  if (initial !== undefined) return initial;
  const kind = kindOf(schema, root);
  if (kind === "object") return {};
  if (kind === "array" || kind === "multi") return [];
  if (kind === "boolean") return false;
  if (kind === "number") return num(schema.minimum) ?? 0;
  if (kind === "select") return optionsOf(schema)![0].value;
  return kind === "json" ? null : "";
}
