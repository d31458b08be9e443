/**
 * The syntax of environment references in config values: `env:NAME` (the whole value) and
 * `${NAME}` (interpolated). The server resolves them; the schema and the UI only recognise them.
 */

/** `env:NAME`: the whole value is the variable NAME (capture group 1). */
export const WHOLE_ENV_REF = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;

/** `${NAME}` inside a value (capture group 1). Global: for `replace` and `matchAll`, not `test`. */
export const INTERPOLATED_ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Whether a string refers to the environment (and so is not a literal secret). */
export function hasEnvRef(value: string): boolean {
  return WHOLE_ENV_REF.test(value) || /\$\{[A-Za-z_][A-Za-z0-9_]*\}/.test(value);
}
