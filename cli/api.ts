/**
 * The HTTP API as the client subcommands use it: in process through a Lass's handler, or a
 * running Lass over the network (`--url`). Both send the same Requests, so the answers are the
 * API's own, byte for byte.
 */
import type { Lass } from "../lass.ts";
import { CliError } from "./errors.ts";

/** Sends API requests and closes what it opened. */
export interface Api {
  /** Where the requests go, for messages. */
  readonly where: string;
  /** Sends a request for `path` (e.g. `/api/chat`) with the token; `json` becomes the body. */
  call(path: string, init?: { method?: string; json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

function request(
  base: string,
  token: string,
  path: string,
  init: { method?: string; json?: unknown },
) {
  const headers: Record<string, string> = { "x-service-token": token };
  if (init.json !== undefined) headers["content-type"] = "application/json";
  return new Request(new URL(path, base), {
    method: init.method ?? "GET",
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
}

/** The API of a Lass opened in this process; closing the API closes that Lass. */
export function inProcessApi(lass: Lass): Api {
  return {
    where: `Lass in process (${lass.configPath})`,
    call: (path, init = {}) => lass.handler(request("http://127.0.0.1/", lass.token, path, init)),
    close: () => lass.close(),
  };
}

/**
 * The API of a running Lass at `url`. The token is `token`, else the `token` query parameter of
 * `url` (the URL Lass prints at startup works as it is). A Lass that cannot be reached is a
 * {@link CliError} with exit code 1.
 */
export function remoteApi(url: string, token: string | undefined): Api {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(
      `--url must be an http(s) URL such as http://127.0.0.1:7420, not ${JSON.stringify(url)}`,
    );
  }
  const key = token || parsed.searchParams.get("token");
  if (!key) {
    throw new CliError("--url needs the service token: pass --token or set LASS_TOKEN");
  }
  const base = parsed.origin;
  return {
    where: base,
    call: async (path, init = {}) => {
      try {
        return await fetch(request(base, key, path, init));
      } catch (error) {
        throw new CliError(`cannot reach Lass at ${base}: ${(error as Error).message}`, 1);
      }
    },
    close: () => Promise.resolve(),
  };
}

/**
 * The {@link CliError} for an API answer that is not a success: the contract's error message and
 * details; a request the command line got wrong (400, 404) exits with 2, anything else with 1.
 */
export async function apiError(response: Response, what: string): Promise<CliError> {
  const text = await response.text();
  let message = `${response.status} ${response.statusText}`.trim();
  const type = response.headers.get("content-type") ?? "no content type";
  if (!/\bjson\b/i.test(type)) {
    // Every answer of the API, errors included, is JSON: this is some other server.
    return new CliError(`${what}: the answer is not from a Lass API (${message}, ${type})`, 1);
  }
  try {
    const { error } = JSON.parse(text) as {
      error: { message: string; details?: { path: string; message: string }[] };
    };
    const details = (error.details ?? []).map((d) =>
      `\n  ${d.path || "(top level)"}: ${d.message}`
    );
    message = error.message + details.join("");
  } catch {
    if (text.trim() !== "") message += `: ${text.trim().slice(0, 300)}`;
  }
  const usage = response.status === 400 || response.status === 404;
  return new CliError(`${what}: ${message}`, usage ? 2 : 1);
}

/**
 * The values of an NDJSON body as they arrive, with each line's text as it was sent; aborting
 * `signal` cancels the body and ends the values.
 */
export async function* ndjsonLines(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<{ line: string; value: unknown }> {
  // A TextDecoder rather than a TextDecoderStream: with the DOM types in the same check the
  // stream's types do not line up with Deno's.
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const stop = () => reader.cancel().catch(() => {});
  signal?.addEventListener("abort", stop, { once: true });
  let buffer = "";
  try {
    while (true) {
      const { value, done } = await reader.read().catch((error) => {
        throw new CliError(`the stream from Lass broke off: ${(error as Error).message}`, 1);
      });
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.trim() !== "") yield { line, value: JSON.parse(line) };
      }
    }
    buffer += decoder.decode();
    if (buffer.trim() !== "") yield { line: buffer, value: JSON.parse(buffer) };
  } finally {
    signal?.removeEventListener("abort", stop);
    await reader.cancel().catch(() => {});
  }
}
