/** Reads a config: `service.json`'s schema and references checked, every problem at its dotted path. */
import { referenceProblems } from "../../wire/config/references.ts";
import { type ServiceConfig, ServiceConfigSchema } from "../../wire/config/schema.ts";
import { detailsFromIssues, LassError } from "../errors.ts";

/** Validates a whole config; throws 400 `invalid-config` with every problem's dotted path. */
export function parseConfig(input: unknown): ServiceConfig {
  const parsed = ServiceConfigSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const details = detailsFromIssues(parsed.error.issues);
  // A config that fails its schema is not checked for references by it: list those too.
  if (input !== null && typeof input === "object") {
    const known = new Set(details.map((detail) => `${detail.path}\n${detail.message}`));
    for (const problem of referenceProblems(input as Record<string, unknown>)) {
      if (!known.has(`${problem.path}\n${problem.message}`)) details.push(problem);
    }
  }
  const first = details[0];
  throw new LassError(
    "invalid-config",
    `the config is invalid: ${first.path || "(top level)"}: ${first.message}` +
      (details.length > 1 ? ` (and ${details.length - 1} more)` : ""),
    details,
  );
}
