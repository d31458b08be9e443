/**
 * Writes `schema/service.schema.json`, `schema/eval.schema.json` and
 * `schema/cassette.schema.json` from the zod schemas, and
 * `schema/standard_catalog.json` (the standard catalog's view) from `@a2ui/web_core`
 * (`deno task schema`).
 */
import { configJsonSchema } from "../wire/config/schema.ts";
import { cassetteJsonSchema } from "../wire/cassette.ts";
import { evalJsonSchema } from "../core/evals/file.ts";
import { viewOf } from "../core/genui/catalog.ts";
import { loadStandardCatalog } from "../core/genui/load.ts";

const schemas = {
  "service.schema.json": configJsonSchema(),
  "eval.schema.json": evalJsonSchema(),
  "cassette.schema.json": cassetteJsonSchema(),
  "standard_catalog.json": viewOf(await loadStandardCatalog()),
};
for (const [name, schema] of Object.entries(schemas)) {
  const target = new URL(`../schema/${name}`, import.meta.url);
  await Deno.writeTextFile(target, JSON.stringify(schema, null, 2) + "\n");
  console.log(`wrote ${target.pathname}`);
}
