/**
 * Reading request bodies: a size cap (413), JSON parsing (400 `invalid-json`, nesting at most 64
 * levels deep) and zod validation.
 */
import type { z } from "zod";
import { detailsFromIssues, LassError } from "../core/errors.ts";

/** The largest request body Lass reads: 10 MiB. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** The deepest nesting of arrays and objects Lass reads in a JSON body. */
export const MAX_JSON_DEPTH = 64;

/**
 * Throws 400 `invalid-json` when a JSON text nests arrays and objects deeper than `limit`: one
 * linear pass counting brackets outside strings, before any recursive parse or validation runs
 * (thousands of levels would overflow the stack). Malformed text is left for the parser.
 */
export function checkJsonDepth(text: string, limit = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) {
        throw new LassError(
          "invalid-json",
          `the request body nests arrays and objects more than ${limit} levels deep, ` +
            `which Lass does not read`,
        );
      }
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
}

function tooLarge(limit: number): LassError {
  return new LassError("too-large", `the request body is larger than ${limit} bytes`);
}

/** Throws 413 when a declared `Content-Length` is over the limit, before anything is read. */
export function checkDeclaredLength(req: Request, limit = MAX_BODY_BYTES): void {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
}

/** Reads the body as text, stopping (413) as soon as it passes `limit` bytes. */
export async function readText(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  checkDeclaredLength(req, limit);
  // A declared length within the limit is read in one go (without asking for `req.body`, which
  // makes a stream of it); otherwise the stream is counted.
  if (req.headers.has("content-length")) return await req.text();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Reads and parses a JSON body; a malformed body is 400 `invalid-json`, and so is an empty one
 * unless `emptyAs` gives the value an empty body stands for.
 */
export async function readJson(
  req: Request,
  options: { emptyAs?: unknown } = {},
): Promise<unknown> {
  const text = await readText(req);
  if (options.emptyAs !== undefined && text.trim() === "") return options.emptyAs;
  checkJsonDepth(text);
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = text.trim() === "" ? "the request body is empty" : (error as Error).message;
    throw new LassError("invalid-json", `the request body is not valid JSON: ${reason}`);
  }
}

/** Validates a value against a schema; a mismatch is 400 `invalid-request` with dotted paths. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = detailsFromIssues(parsed.error.issues);
  throw new LassError(
    "invalid-request",
    `the request does not have the expected shape: ${details[0].path || "(body)"}: ${
      details[0].message
    }`,
    details,
  );
}

/**
 * Validates a URL's query parameters against a schema; a parameter given twice is 400
 * `invalid-request` (which one counts would be a guess: `?redact=1&redact=0`).
 */
export function validateQuery<S extends z.ZodType>(schema: S, url: URL): z.output<S> {
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (Object.hasOwn(query, name)) {
      throw new LassError("invalid-request", `the query gives ${name} more than once`, [
        { path: name, message: "is given more than once" },
      ]);
    }
    query[name] = value;
  }
  return validate(schema, query);
}

/** Reads a JSON body and validates it; `optional` lets an empty body stand for `{}`. */
export async function readBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  options: { optional?: boolean } = {},
): Promise<z.output<S>> {
  return validate(schema, await readJson(req, options.optional ? { emptyAs: {} } : {}));
}
