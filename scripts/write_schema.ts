/** Writes `schema/service.schema.json` and `schema/eval.schema.json` from the zod schemas (`deno task schema`). */
import { configJsonSchema } from "../core/config/schema.ts";
import { evalJsonSchema } from "../core/evals/file.ts";

const schemas = { "service.schema.json": configJsonSchema(), "eval.schema.json": evalJsonSchema() };
for (const [name, schema] of Object.entries(schemas)) {
  const target = new URL(`../schema/${name}`, import.meta.url);
  await Deno.writeTextFile(target, JSON.stringify(schema, null, 2) + "\n");
  console.log(`wrote ${target.pathname}`);
}
