/** JSON Schemas of catalog components, made from `@a2ui/web_core`'s zod schemas; loaded on first use. */
import { zodToJsonSchema } from "zod-to-json-schema";
import { COMMON_TYPES_URL, commonTypeOf } from "./catalog.ts";

/** web_core marks a common type with a description `REF:common_types.json#/$defs/<Name>|<text>`. */
const REF_MARK = /^REF:[^#|]*#\/\$defs\/([A-Za-z]+)(?:\|([\s\S]*))?$/;

type Json = Record<string, unknown>;

/**
 * The standalone JSON Schema of a component's properties. Each A2UI common type (DynamicString,
 * ComponentId, ChildList, Action, ...) becomes `{"$ref": ".../common_types.json#/$defs/<Name>"}`
 * with its description, as in the published catalogs; everything else is inlined.
 */
// deno-lint-ignore no-explicit-any
export function componentJsonSchema(zodSchema: any): Json {
  const schema = zodToJsonSchema(zodSchema, { $refStrategy: "none" }) as Json;
  delete schema.$schema;
  return markCommonTypes(schema) as Json;
}

/** Replaces the nodes web_core marks as common types with `$ref`s (a copy). */
function markCommonTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(markCommonTypes);
  if (node === null || typeof node !== "object") return node;
  const record = node as Json;
  const mark = typeof record.description === "string" ? REF_MARK.exec(record.description) : null;
  if (mark) {
    return {
      $ref: `${COMMON_TYPES_URL}#/$defs/${mark[1]}`,
      ...(mark[2] && { description: mark[2] }),
    };
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(record)) out[key] = markCommonTypes(value);
  const dynamic = dynamicTypeOf(out.anyOf);
  if (dynamic) {
    return {
      $ref: `${COMMON_TYPES_URL}#/$defs/${dynamic}`,
      ...(typeof out.description === "string" && { description: out.description }),
    };
  }
  return out;
}

/** The Dynamic* common type that a union of a literal, a binding and a function call is. */
function dynamicTypeOf(anyOf: unknown): string | undefined {
  if (!Array.isArray(anyOf) || anyOf.length !== 3) return undefined;
  const refs = anyOf.map(commonTypeOf);
  if (!refs.includes("DataBinding") || !refs.includes("FunctionCall")) return undefined;
  const literal = anyOf[refs.findIndex((ref) => ref === undefined)] as Json | undefined;
  if (!literal) return undefined;
  if (literal.type === "array") {
    return (literal.items as Json | undefined)?.type === "string" ? "DynamicStringList" : undefined;
  }
  const byType: Record<string, string> = {
    string: "DynamicString",
    number: "DynamicNumber",
    boolean: "DynamicBoolean",
  };
  return typeof literal.type === "string" ? byType[literal.type] : undefined;
}
