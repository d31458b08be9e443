/** Writes `schema/service.schema.json` from the zod schema (`deno task schema`). */
import { configJsonSchema } from "../core/config/schema.ts";

const target = new URL("../schema/service.schema.json", import.meta.url);
await Deno.writeTextFile(target, JSON.stringify(configJsonSchema(), null, 2) + "\n");
console.log(`wrote ${target.pathname}`);
