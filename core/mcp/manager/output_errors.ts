/**
 * The errors of a tool result that breaks its output schema, at their paths: read from the
 * sentence the SDK's check (and Lass's, for task results) fails the call with.
 */
import type { ErrorDetail } from "../../../wire/errors.ts";

const PREFIX = "Structured content does not match the tool's output schema: ";

/**
 * The validator's errors in `message` as details (`structuredContent/sum`: `must be number`), or
 * `undefined` when the message is not an output-schema failure.
 */
export function outputSchemaDetails(message: string): ErrorDetail[] | undefined {
  const at = message.indexOf(PREFIX);
  if (at < 0) return undefined;
  // AJV's text: `data<instance path> <message>`, joined by ", ".
  const errors = message.slice(at + PREFIX.length).split(/, (?=data[/ ])/);
  return errors.map((error) => {
    const match = /^data(\S*) (.*)$/s.exec(error.trim());
    return match
      ? { path: `structuredContent${match[1]}`, message: match[2] }
      : { path: "structuredContent", message: error.trim() };
  });
}
