/** JSON Schema validators for the SDK client, compiled once and shared by every session. */
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from "@modelcontextprotocol/client";

/**
 * The SDK compiles every tool's output schema with AJV on each `tools/list` (most of a connect's
 * time); compiled validators are shared across sessions, keyed by the schema's text.
 */
class CachingValidator implements jsonSchemaValidator {
  readonly #inner = new AjvJsonSchemaValidator();
  readonly #cache = new Map<string, JsonSchemaValidator<unknown>>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    let validator = this.#cache.get(key);
    if (!validator) {
      validator = this.#inner.getValidator<unknown>(schema);
      this.#cache.set(key, validator);
      if (this.#cache.size > 1000) this.#cache.delete(this.#cache.keys().next().value!);
    }
    return validator as JsonSchemaValidator<T>;
  }
}

/** The validator every session's client uses (one cache for all of them). */
export const sharedValidator: jsonSchemaValidator = new CachingValidator();
