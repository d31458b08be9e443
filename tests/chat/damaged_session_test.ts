/** A chat turn never overwrites a session whose file is damaged. */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startService } from "../_helpers.ts";
import { chat, chatConfig, ofType, user } from "../_chat.ts";

Deno.test("POST /api/chat into a session with a damaged file answers 500 internal and leaves the file", async () => {
  const t = await startService({ config: chatConfig({ servers: [] }) });
  try {
    const file = join(t.dir, "data", "sessions", "dmg.json");
    const made = await chat(t, { messages: [user("hello")], sessionId: "dmg" });
    assert.equal(made.chunks.at(-1).type, "finish", "the session exists first");
    await writeFile(file, "{bad");
    const refused = await chat(t, { messages: [user("hello again")], sessionId: "dmg" });
    assert.equal(refused.status, 500);
    assert.equal(refused.type, "application/json; charset=utf-8");
    assert.equal(refused.body.error.code, "internal");
    assert.match(refused.body.error.message, /session dmg is damaged/);
    assert.equal(await readFile(file, "utf8"), "{bad", "the damaged file is left as it was");
    assert.equal(
      t.service.events.history().filter((event) => event.type === "chat.start").length,
      1,
      "the refused turn did not start",
    );

    // A valid session beside it still takes turns, and a fresh id is still created.
    const fresh = await chat(t, { messages: [user("hello")], sessionId: "new-one" });
    assert.equal(fresh.chunks.at(-1).type, "finish");
    assert.equal((await t.call("/api/sessions/new-one").then((r) => r.json())).messages.length, 2);
  } finally {
    await t.close();
  }
});

Deno.test("saving a turn into a session file damaged meanwhile fails and leaves the file", async () => {
  const t = await startService({ config: chatConfig({ servers: [] }) });
  try {
    const file = join(t.dir, "data", "sessions", "late.json");
    await t.call("/api/sessions/late", {
      method: "PUT",
      json: { workspaceId: "w", messages: [user("hello")] },
    }).then((r) => r.body?.cancel());
    await writeFile(file, "[1, 2");
    await assert.rejects(
      t.service.sessions.appendTurn("late", {
        workspaceId: "w",
        request: [user("hello again")],
        response: [{ role: "assistant", content: "Hi" }],
      }),
      (error: Error & { code?: string }) =>
        error.code === "internal" && /session late is damaged/.test(error.message),
    );
    assert.equal(await readFile(file, "utf8"), "[1, 2");
    const turn = await chat(t, { messages: [user("hello")], sessionId: "late" });
    assert.equal(turn.status, 500);
    assert.deepEqual(ofType(turn.chunks, "finish"), []);
  } finally {
    await t.close();
  }
});
