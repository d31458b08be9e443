/** The committed JSON Schema of `service.json`, loaded as data (no schema generation at startup). */
import schema from "../../schema/service.schema.json" with { type: "json" };

/** The JSON Schema text as Lass writes it beside a created config and serves at `GET /api/schema`. */
export const CONFIG_JSON_SCHEMA_TEXT: string = JSON.stringify(schema, null, 2) + "\n";
