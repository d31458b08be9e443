/** The command line's one failure type: a line to print and the exit code. */

/**
 * A command-line failure: printed as `lass: <message>`; exit code 2 for usage errors, 130 after
 * Ctrl-C, 1 otherwise.
 */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: 1 | 2 | 130 = 2) {
    super(message);
  }
}

/** Whether an error is `node:util` `parseArgs` refusing the flags (a usage error). */
export function isParseArgsError(error: unknown): error is TypeError {
  return error instanceof TypeError &&
    ((error as { code?: string }).code ?? "").startsWith("ERR_PARSE_ARGS");
}
