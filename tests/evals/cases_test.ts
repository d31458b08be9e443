/** From a chat to an eval case: `POST /api/evals/cases` and `POST /api/evals/files/:name/cases`. */
import assert from "node:assert/strict";
import { copyFile, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { appendedText, caseEntry, newFileText } from "../../core/evals/append.ts";
import { checkEval } from "../../core/evals/check.ts";
import { caseFromSession } from "../../core/evals/from_session.ts";
import { prepareEval } from "../../core/evals/runner.ts";
import { chat, chatConfig, user } from "../_chat.ts";
import { type Json, post, startService, type TestService } from "../_helpers.ts";

const EXAMPLE = new URL("../../examples/demo.eval.yaml", import.meta.url);

/** Two turns on the demo model and demo tools, stored as session `s1`. */
async function twoTurnChat(t: TestService): Promise<void> {
  const first = [user("Add 2 and 3 with a tool")];
  const one = await chat(t, { messages: first, sessionId: "s1", workspaceId: "w" });
  const finish = one.chunks.find((chunk: Json) => chunk.type === "finish");
  assert.ok(finish, `the first turn finished: ${JSON.stringify(one.chunks.at(-1))}`);
  const second = [...first, ...finish.messages, user('Use add with 4 and 5, then echo "done"')];
  const two = await chat(t, { messages: second, sessionId: "s1", workspaceId: "w" });
  assert.equal(two.chunks.at(-1).type, "finish", JSON.stringify(two.chunks.at(-1)));
}

/** Runs the eval file at `path` on the service: the report. */
async function runFile(t: TestService, path: string) {
  const { file } = checkEval(t.service, parseYaml(await readFile(path, "utf8")));
  return await prepareEval(t.service, file).run();
}

/** Saves a case into an eval file of the config's folder. */
function save(t: TestService, name: string, body: unknown) {
  return post(t, `/api/evals/files/${name}/cases`, body);
}

Deno.test("a chat's turns become eval cases that pass when the runner runs them", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    await twoTurnChat(t);
    const first = await post(t, "/api/evals/cases", { sessionId: "s1", turns: [0] });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body.case, {
      name: "Add 2 and 3 with a tool",
      prompt: "Add 2 and 3 with a tool",
      expect: { calls: [{ tool: "demo__add", args: { a: 2, b: 3 } }] },
    });
    assert.deepEqual([first.body.workspace, first.body.models, first.body.turns], [
      "w",
      ["demo"],
      [0],
    ]);
    assert.match(
      first.body.yaml,
      /^# From the chat "Add 2 and 3 with a tool" \(session s1, turn 1 of 2\)/,
    );
    assert.match(first.body.yaml, /args: \{ a: 2, b: 3 \}/);

    // Saved as the editor sends it (YAML text): a new file with the chat's settings.
    const created = await save(t, "chats.eval.yaml", {
      case: first.body.yaml,
      workspace: first.body.workspace,
      models: first.body.models,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body, {
      file: "chats.eval.yaml",
      created: true,
      name: "Add 2 and 3 with a tool",
      cases: 1,
      warnings: [],
    });
    const path = join(t.dir, "chats.eval.yaml");
    const text = await readFile(path, "utf8");
    assert.match(text, /^# Eval cases saved from Lass chats/);
    assert.match(text, /\n {2}# From the chat "Add 2 and 3 with a tool"/);
    assert.deepEqual(parseYaml(text).workspace, "w");

    // The second turn, edited as an object, appended: two calls in their order.
    const second = await post(t, "/api/evals/cases", { sessionId: "s1", turns: [1] });
    assert.deepEqual(second.body.case.expect.calls, [
      { tool: "demo__add", args: { a: 4, b: 5 } },
      { tool: "demo__echo", args: { text: "done" } },
    ]);
    const appended = await save(t, "chats.eval.yaml", {
      case: { ...second.body.case, name: "adds, then echoes" },
      workspace: "w",
      models: ["demo"],
    });
    assert.equal(appended.status, 200, JSON.stringify(appended.body));
    assert.deepEqual([appended.body.created, appended.body.cases], [false, 2]);
    assert.ok((await readFile(path, "utf8")).startsWith(text), "the file's first case is kept");

    const report = await runFile(t, path);
    assert.deepEqual(
      report.cases.map((c) => [c.name, c.passed, c.runs]),
      [["Add 2 and 3 with a tool", 1, 1], ["adds, then echoes", 1, 1]],
    );
    assert.equal(report.passRate, 1, JSON.stringify(report.cases.flatMap((c) => c.failures)));
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/evals/cases: a whole session is a case of turns; failed turns are left out or refused", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    await twoTurnChat(t);
    const whole = await post(t, "/api/evals/cases", { sessionId: "s1" });
    assert.equal(whole.status, 200, JSON.stringify(whole.body));
    assert.deepEqual(whole.body.case, {
      name: "Add 2 and 3 with a tool",
      turns: [
        {
          prompt: "Add 2 and 3 with a tool",
          expect: { calls: [{ tool: "demo__add", args: { a: 2, b: 3 } }] },
        },
        {
          prompt: 'Use add with 4 and 5, then echo "done"',
          expect: {
            calls: [
              { tool: "demo__add", args: { a: 4, b: 5 } },
              { tool: "demo__echo", args: { text: "done" } },
            ],
          },
        },
      ],
    });
    assert.deepEqual(whole.body.turns, [0, 1]);
    assert.match(whole.body.yaml, /\(session s1, its 2 turns\)/);

    // A session with a failed turn between two finished ones, a name given.
    const session = (await t.service.sessions.get("s1")).messages;
    await t.service.sessions.put("s2", {
      workspaceId: "w",
      messages: [
        session[0],
        { role: "user", content: [{ type: "text", text: "Echo " }, { type: "text", text: "x" }] },
        { role: "assistant", content: "partial" },
        { role: "user", content: "Reply with the word pong" },
        { role: "assistant", content: [{ type: "text", text: "pong" }] },
      ],
      meta: { endings: { 1: { error: "the model failed" } } },
    });
    const skipped = await post(t, "/api/evals/cases", { sessionId: "s2", name: "  mine " });
    assert.deepEqual(skipped.body.turns, [0, 2]);
    assert.equal(skipped.body.case.name, "mine");
    assert.deepEqual(skipped.body.case.turns[1], {
      prompt: "Reply with the word pong",
      expect: {},
    });
    assert.equal(skipped.body.models, undefined, "a session without a model profile");

    const refused = await post(t, "/api/evals/cases", { sessionId: "s2", turns: [1, 7] });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, "invalid-request");
    assert.deepEqual(refused.body.error.details, [
      {
        path: "turns.0",
        message:
          "turn 1 did not finish (it failed: the model failed); a case is made of finished turns",
      },
      { path: "turns.1", message: "is 7; the session's turns are 0 to 2" },
    ]);
    const missing = await post(t, "/api/evals/cases", { sessionId: "nope" });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, "not-found");
    const bad = await post(t, "/api/evals/cases", { sessionId: "../s1", turns: [-1] });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.error.details.map((d: Json) => d.path), ["sessionId", "turns.0"]);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/evals/files/:name/cases refuses names outside the config's folder and links", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const body = { case: { name: "c", prompt: "Reply with the word pong" } };
    const mark = `lass-escape-${crypto.randomUUID()}`;
    const outside = [join(t.dir, "..", `${mark}.eval.yaml`), join("/tmp", `${mark}-abs.eval.yaml`)];
    const names = [
      `..%2F${mark}.eval.yaml`,
      `%2Ftmp%2F${mark}-abs.eval.yaml`,
      "sub%2Fa.eval.yaml",
      "cases.yaml",
      ".hidden.eval.yaml",
      "a%5Cb.eval.json",
    ];
    for (const name of names) {
      const { status, body: answer } = await save(t, name, body);
      assert.equal(status, 400, `${name}: ${JSON.stringify(answer)}`);
      assert.equal(answer.error.code, "invalid-request");
      assert.equal(answer.error.details[0].path, "file", name);
    }
    for (const path of outside) await assert.rejects(stat(path), { code: "ENOENT" }, path);
    await writeFile(join(t.dir, "target.txt"), "kept\n");
    await symlink(join(t.dir, "target.txt"), join(t.dir, "link.eval.yaml"));
    const link = await save(t, "link.eval.yaml", body);
    assert.equal(link.status, 400);
    assert.match(link.body.error.message, /is a link/);
    assert.equal(await readFile(join(t.dir, "target.txt"), "utf8"), "kept\n");
    assert.deepEqual((await readdir(t.dir)).sort(), [
      "data",
      "link.eval.yaml",
      "service.json",
      "target.txt",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/evals/files/:name/cases appends to an existing file, keeping its cases and comments", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const path = join(t.dir, "demo.eval.yaml");
    await copyFile(EXAMPLE, path);
    const before = await readFile(path, "utf8");
    const caseText = "# Saved by hand\nname: pongs\nprompt: Reply with the word pong\n" +
      "expect:\n  notCalled: [demo__add] # not this one\n";
    const saved = await save(t, "demo.eval.yaml", {
      case: caseText,
      workspace: "w",
      models: ["other"],
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(saved.body.warnings, [
      {
        path: "workspace",
        message: 'the file\'s cases run in workspace "playground"; the chat was in "w"',
      },
      { path: "models", message: "the file's cases run on demo; the chat used other" },
    ]);
    const after = await readFile(path, "utf8");
    assert.equal(
      after,
      `${before}\n  # Saved by hand\n  - name: pongs\n    prompt: Reply with the word pong\n` +
        "    expect:\n      notCalled: [ demo__add ] # not this one\n",
    );
    assert.equal(parseYaml(after).cases.length, 5);

    // A name the file has, and a misspelt expectation: refused at the case's paths, file kept.
    const clash = await save(t, "demo.eval.yaml", { case: { name: "pongs", prompt: "x" } });
    assert.equal(clash.status, 400);
    assert.deepEqual(clash.body.error.details, [
      { path: "case.name", message: 'duplicate name "pongs" (first used at cases.4)' },
    ]);
    const misspelt = await save(t, "demo.eval.yaml", {
      case: "name: other\nprompt: x\nexpect:\n  cals: []\n",
    });
    assert.equal(misspelt.status, 400);
    assert.deepEqual(misspelt.body.error.details.map((d: Json) => d.path), ["case.expect.cals"]);
    const notYaml = await save(t, "demo.eval.yaml", { case: "name: [unclosed" });
    assert.equal(notYaml.status, 400);
    assert.equal(notYaml.body.error.details[0].path, "case");
    assert.equal(await readFile(path, "utf8"), after);

    // A JSON file keeps its other fields.
    const jsonPath = join(t.dir, "more.eval.json");
    await writeFile(
      jsonPath,
      JSON.stringify({ workspace: "w", note: "kept", cases: [{ name: "a", prompt: "p" }] }),
    );
    const json = await save(t, "more.eval.json", { case: { name: "b", prompt: "q" } });
    assert.equal(json.status, 200, JSON.stringify(json.body));
    assert.deepEqual(JSON.parse(await readFile(jsonPath, "utf8")), {
      workspace: "w",
      note: "kept",
      cases: [{ name: "a", prompt: "p" }, { name: "b", prompt: "q" }],
    });
  } finally {
    await t.close();
  }
});

Deno.test("a case added to eval file texts of every shape; a chat's files and empty calls", () => {
  const entry = () => caseEntry("# mine\nname: n\nprompt: p\n");
  // No newline at the end, a trailing comment after the list: both kept.
  assert.equal(
    appendedText("a.eval.yaml", "cases:\n- name: a\n  prompt: b\n# end", entry()).text,
    "cases:\n- name: a\n  prompt: b\n\n# mine\n- name: n\n  prompt: p\n# end",
  );
  assert.equal(
    appendedText("a.eval.yaml", "cases:\n  - name: a\n    prompt: b", entry()).text,
    "cases:\n  - name: a\n    prompt: b\n\n  # mine\n  - name: n\n    prompt: p\n",
  );
  // A file of comments only, one without cases, one with a flow list.
  assert.equal(
    appendedText("a.eval.yaml", "# only a comment\n", entry()).text,
    "# only a comment\n\ncases:\n  # mine\n  - name: n\n    prompt: p\n",
  );
  assert.deepEqual(
    parseYaml(appendedText("a.eval.yaml", "workspace: w # here\n", entry()).text),
    { workspace: "w", cases: [{ name: "n", prompt: "p" }] },
  );
  const flow = appendedText("a.eval.yaml", "cases: [{ name: a, prompt: b }] # flow\n", entry());
  assert.deepEqual(parseYaml(flow.text).cases.map((c: Json) => c.name), ["a", "n"]);
  assert.match(flow.text, /# flow/);
  assert.throws(() => appendedText("a.eval.yaml", "cases: 3\n", entry()), /cases is not a list/);
  assert.throws(() => appendedText("a.eval.json", "[1]", entry()), /is not a mapping/);
  assert.throws(() => caseEntry("- name: n"), /is not a mapping/);
  assert.deepEqual(
    JSON.parse(newFileText("b.eval.json", { workspace: "w" }, entry()).text),
    { workspace: "w", cases: [{ name: "n", prompt: "p" }] },
  );

  const image = { type: "image", image: "data:image/png;base64,AAAA" };
  const made = caseFromSession({
    id: "s",
    title: "T",
    workspaceId: "w",
    agentId: "helper",
    llmId: "demo",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    messages: [
      { role: "system", content: "be brief" },
      { role: "user", content: [{ type: "text", text: "what is this?" }, image] },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "1", toolName: "demo__now", input: {} }],
      },
    ],
  });
  assert.deepEqual(made, {
    case: {
      name: "T",
      messages: [{ role: "user", content: [{ type: "text", text: "what is this?" }, image] }],
      expect: { calls: [{ tool: "demo__now" }] },
    },
    workspace: "w",
    turns: [0],
  });
});
