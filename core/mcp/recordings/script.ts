/**
 * The script of `lass record --script` (YAML or JSON): the calls to make after listing, each a
 * tool call, a resource read or a prompt.
 */
import { parse } from "yaml";
import { z } from "zod";
import { detailsFromIssues, LassError } from "../../errors.ts";

const Step = z.union([
  z.strictObject({
    tool: z.string().min(1),
    args: z.record(z.string(), z.unknown()).default({}),
  }),
  z.strictObject({ resource: z.string().min(1) }),
  z.strictObject({
    prompt: z.string().min(1),
    args: z.record(z.string(), z.string()).default({}),
  }),
]);

/** A whole script: `calls`, run in order. */
export const RecordScriptSchema = z.strictObject({
  calls: z.array(Step).default([]),
});

/** A checked script. */
export type RecordScript = z.output<typeof RecordScriptSchema>;
/** One step of a script. */
export type RecordStep = RecordScript["calls"][number];

/** Reads a script's text (YAML, of which JSON is a part); `name` names it in errors. */
export function parseRecordScript(text: string, name: string): RecordScript {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new LassError(
      "invalid-request",
      `${name} is not YAML or JSON: ${(error as Error).message}`,
    );
  }
  const parsed = RecordScriptSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const details = detailsFromIssues(parsed.error.issues);
    throw new LassError(
      "invalid-request",
      `${name} is not a record script: ${details[0]?.path || "(top level)"}: ${
        details[0]?.message
      }`,
      details,
    );
  }
  return parsed.data;
}
