/**
 * Lass's own reconnects of a stdio server that exits at once: the state shows each planned retry
 * ("retrying in n s (attempt k of 5)"), Lass stops after 5 failed starts (`error`, the attempts
 * counted), the user's Connect starts a new round, and no connect attempt leaves a request
 * pending in the server's History.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { existsSync, readFileSync } from "node:fs";
import { configWithServers, type Json, post, startService, waitForEvent } from "../_helpers.ts";
import { timelineOf } from "../../islands/inspector/timeline.ts";
import { retryWords } from "../../wire/words.ts";
import type { TraceMessage } from "../../wire/trace.ts";

/** A stdio record whose process adds a line to `counter` and exits with code 3. */
function diesAtOnce(counter: string, era: string): Record<string, unknown> {
  return {
    id: "dies",
    name: "Dies at once",
    transport: "stdio",
    command: Deno.execPath(),
    args: [
      "eval",
      "Deno.writeTextFileSync(Deno.args[0], 'x\\n', { append: true }); Deno.exit(3)",
      counter,
    ],
    protocolEra: era,
  };
}

/** How many processes the record started. */
const starts = (counter: string) =>
  existsSync(counter) ? readFileSync(counter, "utf8").trim().split("\n").length : 0;

for (const era of ["legacy", "auto"] as const) {
  Deno.test(`a stdio server that exits at once is retried with its state saying so, then stops after 5 failed starts; no History row stays pending (${era})`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "lass-retry-" });
    const counter = join(dir, "starts.txt");
    const config = configWithServers([diesAtOnce(counter, era)]);
    (config.workspaces as { mcpServerIds: string[] }[])[0].mcpServerIds = ["dies"];
    const s = await startService({ dir, config, mcp: { reconnectDelayMs: 20 } });
    try {
      const stopped = waitForEvent(
        s,
        (e: Json) => e.type === "mcp.state" && e.data.id === "dies" && e.data.retry?.stopped,
        { what: "mcp.state with retry.stopped after 5 failed starts", ms: 60_000 },
      );
      const first = await post(s, "/api/mcp/dies/connect");
      assert.equal(first.body.status, "error", JSON.stringify(first.body));
      await stopped;

      const listed = await s.call("/api/mcp");
      const now = (await listed.json()).servers.find((state: Json) => state.id === "dies");
      assert.equal(now.status, "error");
      assert.deepEqual(now.retry, { attempts: 5, maxAttempts: 5, stopped: true });
      assert.match(now.error ?? "", /exit|closed/i);
      assert.equal(
        retryWords(now.retry, { connecting: false, now: Date.now() }),
        "stopped after 5 failed starts: Connect starts it again",
      );

      const events: Json[] = s.service.events.history().filter((e: Json) =>
        e.type === "mcp.state" && e.data.id === "dies"
      );
      const tries = events.filter((e: Json) => e.data.status === "connecting");
      assert.equal(tries.length, 5, "five connect attempts");
      if (era === "legacy") assert.equal(starts(counter), 5, "five processes started");
      else assert.ok(starts(counter) <= 10, "a probe and a start per attempt at most");
      // Each planned retry was in the state: when, and which attempt.
      const planned = events.filter((e: Json) => e.data.retry?.at !== undefined);
      assert.deepEqual(planned.map((e: Json) => e.data.retry.attempts), [1, 2, 3, 4]);
      for (const e of planned) {
        assert.equal(e.data.status, "error");
        assert.equal(e.data.retry.maxAttempts, 5);
        assert.ok(e.data.retry.inMs >= 20);
      }
      assert.match(
        retryWords(planned[1].data.retry, {
          connecting: false,
          now: Date.parse(planned[1].data.retry.at) - 1500,
        }),
        /^retrying in 2 s \(attempt 3 of 5\)$/,
      );
      // A retry that runs says which attempt it is.
      assert.deepEqual(tries.slice(1).map((e: Json) => e.data.retry?.attempts), [1, 2, 3, 4]);

      // No request of a failed connect stays pending in the History.
      const trace: TraceMessage[] = s.service.mcp.trace("dies", { limit: 2000 });
      const exchanges = timelineOf(trace).items.filter((item) => item.kind === "exchange");
      assert.ok(exchanges.length >= 5, "the connect requests are in the trace");
      const methods = new Set(exchanges.map((item) => item.method));
      assert.ok(methods.has("initialize"), [...methods].join(", "));
      if (era === "auto") assert.ok(methods.has("server/discover"), [...methods].join(", "));
      for (const item of exchanges) {
        assert.notEqual(item.status, "pending", `${item.method} #${item.seq} is left pending`);
        if (item.kind === "exchange") {
          assert.equal(item.status, "error");
          assert.equal(item.response?.unanswered, true);
        }
      }

      // The user's Connect starts a new round of 5.
      const again = waitForEvent(
        s,
        (e: Json) =>
          e.type === "mcp.state" && e.data.id === "dies" && e.data.retry?.attempts === 1 &&
          e.data.retry?.at !== undefined,
        { what: "a new round of retries after Connect" },
      );
      const retried = await post(s, "/api/mcp/dies/connect");
      assert.equal(retried.body.status, "error");
      await again;
      await s.service.mcp.disconnect("dies");
      assert.equal(s.service.mcp.state("dies").retry, undefined, "disconnect ends the retries");
    } finally {
      await s.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
