/** Reading from a connected tool server: a resource, a prompt; each within the record's deadline. */
import { LassError } from "../../errors.ts";
import type { GetPromptResult, ReadResourceResult } from "../session/types.ts";
import { type CallHost, deadlineOf, runRequest } from "./calls.ts";
import type { Entry } from "./entry.ts";

/** Reads a resource of a server; a resource the server does not know is 404. */
export async function readResource(
  host: CallHost,
  entry: Entry,
  uri: string,
): Promise<ReadResourceResult> {
  const id = entry.record.id;
  const deadline = deadlineOf(host, entry);
  return await runRequest(
    host,
    entry,
    `reading ${uri} from ${id}`,
    (session) => session.readResource(uri, deadline),
    { notFound: `the tool server ${id} has no resource ${uri}`, timeoutMs: deadline.timeoutMs },
  );
}

/** Gets a prompt of a server with its arguments; a prompt the server does not know is 404. */
export async function getPrompt(
  host: CallHost,
  entry: Entry,
  prompt: { name: string; args: Record<string, string> },
): Promise<GetPromptResult> {
  const id = entry.record.id;
  const { name, args } = prompt;
  const notFound = `the tool server ${id} has no prompt named ${name}`;
  const deadline = deadlineOf(host, entry);
  await host.connected(entry);
  if (
    entry.state.prompts.length > 0 && !entry.state.prompts.some((p) => p.name === name)
  ) throw new LassError("not-found", notFound);
  return await runRequest(
    host,
    entry,
    `the prompt ${name} of ${id}`,
    (session) => session.getPrompt(name, args, deadline),
    { notFound, timeoutMs: deadline.timeoutMs },
  );
}
