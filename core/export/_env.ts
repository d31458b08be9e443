/** Config values as exports write them: literal text and environment variables, never a literal secret. */
import { INTERPOLATED_ENV_REF, WHOLE_ENV_REF } from "../../wire/config/env_refs.ts";
import type { ExportEnvVar } from "../../wire/export.ts";
import { readArg, redactUrl } from "../config/redact.ts";

/** One part of an exported value: literal text, or the value of an environment variable. */
export type Piece = string | { env: string };

/** What may stand before a secret in a header without being one: an auth scheme. */
const SCHEME = /^\s*(bearer|basic|token|apikey)\s+/i;

/** A name fit for an environment variable: upper case, `_` between words, not starting with a digit. */
export function envName(...parts: string[]): string {
  const name = parts.join("_").replace(/[^A-Za-z0-9]+/g, "_").replace(/^_+|_+$/g, "")
    .toUpperCase();
  return /^[A-Z_]/.test(name) ? name : `LASS_${name}`;
}

/** The variables one export reads, with unique names for the ones that replace literals. */
export class EnvVars {
  readonly #vars = new Map<string, ExportEnvVar>();

  /** Notes a variable the config refers to (`env:NAME`, `${NAME}`). */
  reference(name: string, description: string): void {
    if (!this.#vars.has(name)) this.#vars.set(name, { name, description, replacesLiteral: false });
  }

  /** A new variable for a literal the export leaves out; `preferred`, else a numbered variant. */
  replace(preferred: string, description: string): string {
    let name = preferred;
    for (let n = 2; this.#vars.has(name); n++) name = `${preferred}_${n}`;
    this.#vars.set(name, { name, description, replacesLiteral: true });
    return name;
  }

  /** Every variable, in the order first met. */
  list(): ExportEnvVar[] {
    return [...this.#vars.values()];
  }
}

/** A plain value (command, argument, model id...): literal text kept, references noted. */
export function plainValue(value: string, vars: EnvVars, description: string): Piece[] {
  const whole = WHOLE_ENV_REF.exec(value);
  if (whole) {
    vars.reference(whole[1], description);
    return [{ env: whole[1] }];
  }
  const pieces: Piece[] = [];
  let at = 0;
  for (const match of value.matchAll(INTERPOLATED_ENV_REF)) {
    if (match.index > at) pieces.push(value.slice(at, match.index));
    pieces.push({ env: match[1] });
    vars.reference(match[1], description);
    at = match.index + match[0].length;
  }
  if (at < value.length) pieces.push(value.slice(at));
  return pieces;
}

function hasLiteralSecret(pieces: Piece[]): boolean {
  return pieces.some((piece) => typeof piece === "string" && piece.trim() !== "");
}

/**
 * A secret value (API key, header value, env value, client secret). References stay references;
 * a literal (after an auth scheme such as `Bearer `, which is kept) becomes the variable
 * `preferred` (or a numbered variant), noted as one the user must set.
 */
export function secretValue(
  value: string,
  vars: EnvVars,
  options: { preferred: string; description: string },
): Piece[] {
  if (value === "") return [""];
  const scheme = SCHEME.exec(value)?.[0] ?? "";
  const rest = plainValue(value.slice(scheme.length), vars, options.description);
  if (!hasLiteralSecret(rest)) return scheme ? [scheme, ...rest] : rest;
  const name = vars.replace(options.preferred, options.description);
  return scheme ? [scheme, { env: name }] : [{ env: name }];
}

/**
 * A URL, kept as written unless it holds credentials (user info, a secret-looking query value):
 * then the whole URL becomes a variable.
 */
export function urlValue(
  value: string,
  vars: EnvVars,
  options: { preferred: string; description: string },
): Piece[] {
  if (redactUrl(value) === value) return plainValue(value, vars, options.description);
  return [{ env: vars.replace(options.preferred, options.description) }];
}

/**
 * Command-line arguments: kept as written, except a secret flag's value (`--token abc`,
 * `--token=abc`, read by {@link readArg} as the redacted config export reads them) and a URL with
 * credentials, which become variables named `<PREFIX>_<FLAG>`.
 */
export function argValues(
  args: readonly string[],
  vars: EnvVars,
  options: { prefix: string; label: string },
): Piece[][] {
  const description = `used by the ${options.label}`;
  return args.map((arg, index) => {
    const { flag, value, inline, secret } = readArg(args, index);
    const secretName = envName(options.prefix, flag.replace(/^-+/, ""));
    const named = { preferred: secretName, description: `${flag} of the ${options.label}` };
    if (secret) {
      const pieces = secretValue(value, vars, named);
      return inline ? [`${flag}=`, ...pieces] : pieces;
    }
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) return urlValue(arg, vars, named);
    return plainValue(arg, vars, description);
  });
}

/** Whether a value is literal text only (no variable). */
export function isLiteral(pieces: Piece[]): pieces is string[] {
  return pieces.every((piece) => typeof piece === "string");
}

/** A value in the config's own notation: `env:NAME` for a lone variable, else `${NAME}` inside text. */
export function configNotation(pieces: Piece[]): string {
  if (pieces.length === 1 && typeof pieces[0] !== "string") return `env:${pieces[0].env}`;
  return braceNotation(pieces);
}

/** A value with `${NAME}` for each variable (Claude Code's `.mcp.json`, Lass's `${}`). */
export function braceNotation(pieces: Piece[]): string {
  return pieces.map((piece) => typeof piece === "string" ? piece : `\${${piece.env}}`).join("");
}
