/**
 * The inputs of a `server.json` package or remote (arguments, environment variables, headers, URL
 * variables) resolved into values for a record: the user's value, the publisher's value or
 * default, or an environment reference — always for a secret, which never enters the config.
 */
import { LassError } from "../../errors.ts";
import type { RegistryInput, RegistryInputNeed } from "../../../wire/registry.ts";

/** What resolving a record's inputs collects: the values given, the needs and notes found. */
export interface InputContext {
  /** The values the user gave, by input key (`env.API_URL`, `packageArguments.0`...). */
  given: Record<string, string>;
  /** Upper-case prefix of variables made up for headers, arguments and URL variables. */
  prefix: string;
  needs: RegistryInputNeed[];
  notes: string[];
}

/** How one input is placed: its key, its words, the variable it falls back on. */
export interface InputPlace {
  key: string;
  label: string;
  variable: string;
  /** `env:NAME` when the reference is the whole value, `${NAME}` inside a longer one. */
  whole: boolean;
  /** Treat as secret even when the input does not say so (a variable of a secret header). */
  secret?: boolean;
}

/** A variable name from any text: `x-api-key` → `X_API_KEY`. */
export function variableOf(text: string): string {
  const name = text.toUpperCase().replace(/[^A-Z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
  return /^[0-9]/.test(name) ? `_${name}` : name || "VALUE";
}

/** `PREFIX_NAME` for a made-up variable, unless the name already starts with the prefix. */
export function prefixed(context: InputContext, name: string): string {
  const own = variableOf(name);
  return own.startsWith(`${context.prefix}_`) ? own : `${context.prefix}_${own}`;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const HAS_PLACEHOLDER = /\{[A-Za-z_][A-Za-z0-9_]*\}/;

/**
 * The value of an input with `variables`: each `{name}` of `template` filled from its variable
 * (a name without a variable stays as written, as the schema says). Variables of a secret
 * value are secret too.
 */
export function fillTemplate(
  template: string,
  variables: Record<string, RegistryInput> | undefined,
  place: InputPlace,
  context: InputContext,
): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const variable = variables?.[name];
    if (!variable) return whole;
    const filled = resolveInput(variable, {
      key: `${place.key}.${name}`,
      label: `{${name}} in ${place.label}`,
      variable: prefixed(context, name),
      whole: false,
      secret: place.secret,
    }, context);
    return filled ?? "";
  });
}

/**
 * The value an input takes in the record, or `undefined` when it is left out (optional, no value
 * and no default). Records what the input needs in `context.needs`; throws `invalid-request` when
 * a secret is given a value or a value is not one of the input's choices.
 */
export function resolveInput(
  input: RegistryInput & { variables?: Record<string, RegistryInput> },
  place: InputPlace,
  context: InputContext,
): string | undefined {
  const secret = input.isSecret === true || place.secret === true;
  const given = context.given[place.key];
  const reference = place.whole ? `env:${place.variable}` : `\${${place.variable}}`;
  if (input.value !== undefined && input.variables && HAS_PLACEHOLDER.test(input.value)) {
    // The publisher's value: not for the user to change; its `{variables}` are.
    return fillTemplate(input.value, input.variables, { ...place, secret }, context);
  }
  if (input.value !== undefined && !secret) return input.value;
  const need: RegistryInputNeed = {
    key: place.key,
    label: place.label,
    isRequired: input.isRequired === true,
    isSecret: secret,
    ...(input.description !== undefined && { description: input.description }),
    ...(input.default !== undefined && { default: input.default }),
    ...(input.choices?.length && { choices: input.choices }),
  };
  context.needs.push(need);
  if (secret) {
    if (given !== undefined) {
      throw new LassError(
        "invalid-request",
        `${place.label} is a secret: Lass does not write it into the config; set ` +
          `${place.variable} in Lass's environment instead`,
        [{ path: `inputs.${place.key}`, message: "is a secret; leave it out" }],
      );
    }
    need.variable = place.variable;
    return reference;
  }
  const chosen = given !== undefined && given !== "" ? given : input.default;
  if (chosen !== undefined) {
    if (given && input.choices?.length && !input.choices.includes(given)) {
      throw new LassError("invalid-request", `${place.label} must be one of its choices`, [
        { path: `inputs.${place.key}`, message: `must be one of ${input.choices.join(", ")}` },
      ]);
    }
    need.value = chosen;
    return chosen;
  }
  if (input.isRequired) {
    need.variable = place.variable;
    return reference;
  }
  return undefined;
}
