/**
 * `lass record`: connects a configured server afresh (the handshake and its lists enter the
 * trace), runs a script's calls, and makes the cassette of what crossed.
 */
import type { Cassette } from "../../../wire/cassette.ts";
import { LassError } from "../../errors.ts";
import type { ToolServerManager } from "../manager/manager.ts";
import { serverCassette } from "./of_server.ts";
import type { RecordScript, RecordStep } from "./script.ts";

/** What a recording made: the cassette, and the steps that failed (they are recorded too). */
export interface Recording {
  cassette: Cassette;
  failures: { step: RecordStep; reason: string }[];
}

/**
 * Records server `id`: a new connection, its lists, then each step of `script` in order. A server
 * that does not connect is a 502 `upstream-error` with its reason; a step that fails is kept.
 */
export async function recordServer(
  mcp: ToolServerManager,
  id: string,
  script: RecordScript = { calls: [] },
): Promise<Recording> {
  if (mcp.state(id).transport === "replay") {
    throw new LassError(
      "invalid-request",
      `the tool server ${id} is a replay: record the live server`,
    );
  }
  const since = mcp.trace(id, { limit: 1 }).at(-1)?.seq ?? 0;
  const state = await mcp.connect(id, { force: true });
  if (state.status !== "connected") {
    throw new LassError(
      "upstream-error",
      `the tool server ${id} did not connect: ${state.error ?? state.status}`,
    );
  }
  const failures: Recording["failures"] = [];
  for (const step of script.calls) {
    try {
      if ("tool" in step) await mcp.callTool(id, step.tool, step.args);
      else if ("resource" in step) await mcp.readResource(id, step.resource);
      else await mcp.getPrompt(id, step.prompt, step.args);
    } catch (error) {
      failures.push({ step, reason: (error as Error).message });
    }
  }
  return { cassette: serverCassette(mcp, id, { since }), failures };
}
