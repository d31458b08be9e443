/**
 * Checks the content of an accepted form elicitation against the request's `requestedSchema`
 * (a flat object of strings, numbers, integers, booleans and multi-selects, as MCP elicitation
 * allows), after filling in the schema's defaults, with the same AJV (and formats) as the MCP
 * client. What does not fit comes back as contract details, one per field.
 */
import { addFormats, Ajv } from "@modelcontextprotocol/client/validators/ajv";
import type { ErrorDetail } from "../../../wire/errors.ts";
import { plural } from "../../../wire/words.ts";

type Schema = Record<string, unknown>;
type Validate = ReturnType<InstanceType<typeof Ajv>["compile"]>;
type AjvError = NonNullable<Validate["errors"]>[number];
type Content = Record<string, unknown>;

const CACHED_FORMS = 100;

let engine: InstanceType<typeof Ajv> | undefined;
/** Compiled forms by their schema's text (servers ask with the same form again and again). */
const compiled = new Map<string, Validate | null>();

/**
 * The draft-07 engine with formats, set up as the SDK's own (`verbose` for the enums' values;
 * quiet about formats it does not know, which it lets pass).
 */
function ajv(): InstanceType<typeof Ajv> {
  if (!engine) {
    engine = new Ajv({
      strict: false,
      validateFormats: true,
      validateSchema: false,
      allErrors: true,
      verbose: true,
      logger: false,
    });
    addFormats(engine);
  }
  return engine;
}

/**
 * The form's validator, or `null` for a schema AJV cannot compile (a bad pattern, a dangling
 * `$ref`): the server then judges the answer itself. Fields the form does not list are refused
 * unless the schema says otherwise.
 */
function validatorOf(requestedSchema: Schema): Validate | null {
  const { $schema: _, ...schema } = requestedSchema;
  const key = JSON.stringify(schema);
  if (compiled.has(key)) return compiled.get(key)!;
  let validate: Validate | null;
  try {
    validate = ajv().compile({ additionalProperties: false, ...schema });
  } catch {
    validate = null;
  }
  compiled.set(key, validate);
  if (compiled.size > CACHED_FORMS) {
    const oldest = compiled.keys().next().value!;
    const dropped = compiled.get(oldest);
    if (dropped) ajv().removeSchema(dropped.schema as Schema);
    compiled.delete(oldest);
  }
  return validate;
}

/** The content with the schema's defaults for the fields it leaves out. */
function withDefaults(schema: Schema, content: Content): Content {
  const properties = (schema.properties ?? {}) as Record<string, Schema | undefined>;
  const filled = { ...content };
  for (const [name, property] of Object.entries(properties)) {
    if (filled[name] === undefined && property && "default" in property) {
      filled[name] = property.default;
    }
  }
  return filled;
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "true or false",
  array: "a list",
  object: "an object",
};

const FORMAT_NAMES: Record<string, string> = {
  email: "an email address",
  uri: "an absolute URI",
  date: "a date (YYYY-MM-DD)",
  "date-time": "a date and time (ISO 8601, with a time zone)",
};

/** The values a titled enum (`oneOf` / `anyOf` of `const`s) allows, if that is what it is. */
function constsOf(branches: unknown): unknown[] | undefined {
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const consts = branches.map((branch) => (branch as Schema | null)?.const);
  return consts.every((value) => value !== undefined) ? consts : undefined;
}

/** A sentence for one of AJV's complaints; `undefined` for those another one says better. */
function messageOf(error: AjvError): string | undefined {
  const { keyword, params } = error;
  switch (keyword) {
    case "required":
      return "is required";
    case "additionalProperties":
      return "is not a field of the form";
    case "type":
      return `must be ${TYPE_NAMES[String(params.type)] ?? String(params.type)}`;
    case "enum":
      return `is not one of ${(params.allowedValues as unknown[]).join(", ")}`;
    case "const":
      // A branch of a titled enum; its oneOf / anyOf names every value.
      return error.schemaPath.match(/\/(oneOf|anyOf)\/\d+\/const$/)
        ? undefined
        : `must be ${String(params.allowedValue)}`;
    case "oneOf":
    case "anyOf": {
      const consts = constsOf(error.schema);
      return consts ? `is not one of ${consts.join(", ")}` : error.message;
    }
    case "minLength":
      return `must be at least ${plural(params.limit, "character")} long`;
    case "maxLength":
      return `must be at most ${plural(params.limit, "character")} long`;
    case "minimum":
      return `must be at least ${params.limit}`;
    case "maximum":
      return `must be at most ${params.limit}`;
    case "exclusiveMinimum":
      return `must be more than ${params.limit}`;
    case "exclusiveMaximum":
      return `must be less than ${params.limit}`;
    case "minItems":
      return `must have at least ${plural(params.limit, "choice")}`;
    case "maxItems":
      return `must have at most ${plural(params.limit, "choice")}`;
    case "uniqueItems":
      return "must not repeat a choice";
    case "format":
      return `is not ${FORMAT_NAMES[String(params.format)] ?? `a valid ${params.format}`}`;
    default:
      return error.message;
  }
}

/** The dotted path of a JSON pointer into the content (`/tags/0` → `tags.0`). */
function pathOf(pointer: string): string[] {
  return pointer.split("/").slice(1).map((part) =>
    part.replaceAll("~1", "/").replaceAll("~0", "~")
  );
}

/** AJV's complaints as details under `prefix`: one field, one problem per sentence. */
function detailsOf(errors: AjvError[], prefix: string): ErrorDetail[] {
  const byPath = new Map<string, { typeError: boolean; messages: Set<string> }>();
  for (const error of errors) {
    const message = messageOf(error);
    if (message === undefined) continue;
    const field = error.keyword === "required"
      ? String(error.params.missingProperty)
      : error.keyword === "additionalProperties"
      ? String(error.params.additionalProperty)
      : undefined;
    const path = [prefix, ...pathOf(error.instancePath), ...(field === undefined ? [] : [field])]
      .join(".");
    const entry = byPath.get(path) ?? { typeError: false, messages: new Set<string>() };
    byPath.set(path, entry);
    // A value of the wrong type: that is the one thing to say about it.
    if (entry.typeError) continue;
    if (error.keyword === "type") {
      entry.typeError = true;
      entry.messages.clear();
    }
    entry.messages.add(message);
  }
  return [...byPath].flatMap(([path, { messages }]) =>
    [...messages].map((message) => ({ path, message }))
  );
}

/**
 * An accepted form answer's content with the schema's defaults filled in (as Lass announces with
 * `elicitation.form.applyDefaults`), or what in it does not fit the schema, as details whose
 * paths start with `prefix` (e.g. `response.content.color`).
 */
export function checkFormContent(
  requestedSchema: Schema,
  content: Content,
  prefix: string,
): { content: Content } | { details: ErrorDetail[] } {
  const filled = withDefaults(requestedSchema, content);
  const validate = validatorOf(requestedSchema);
  if (!validate || validate(filled)) return { content: filled };
  return { details: detailsOf(validate.errors ?? [], prefix) };
}
