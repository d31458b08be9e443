/** Reading a cassette file: JSON, checked against the format, every problem at its path. */
import { readFile } from "node:fs/promises";
import { type Cassette, CassetteSchema } from "../../../wire/cassette.ts";
import { detailsFromIssues, LassError } from "../../errors.ts";

/** A cassette from its JSON text; `name` names it in errors (400 `invalid-request` with details). */
export function parseCassette(text: string, name: string): Cassette {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new LassError("invalid-request", `${name} is not JSON: ${(error as Error).message}`);
  }
  const parsed = CassetteSchema.safeParse(raw);
  if (!parsed.success) {
    const details = detailsFromIssues(parsed.error.issues);
    throw new LassError(
      "invalid-request",
      `${name} is not a Lass cassette: ${details[0]?.path || "(top level)"}: ${
        details[0]?.message
      }`,
      details,
    );
  }
  return parsed.data;
}

/** Reads and checks a cassette file; a missing file is a `not-found` error naming it. */
export async function readCassette(path: string): Promise<Cassette> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new LassError(
      "not-found",
      `cannot read the cassette ${path}: ${(error as Error).message}`,
    );
  }
  return parseCassette(text, path);
}

/** A cassette as its file holds it: formatted JSON with a newline. */
export function cassetteText(cassette: Cassette): string {
  return JSON.stringify(cassette, null, 2) + "\n";
}
