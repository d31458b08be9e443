import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { chatConfig, DEMO_LLM, DEMO_SERVER, fakeLlm, ofType, parseNdjson } from "../_chat.ts";
import { type CliHome, cliHome, runLass, serveLass, spawnLass } from "../_cli.ts";
import { startFakeVendor } from "../fixtures/fake_vendors.ts";

const ADD = "Add 2 and 3 with a tool";
const SLOW = "slow count 40 steps of 250 ms";

/** A stored session of a CLI home, as on disk. */
async function storedSession(home: CliHome, id: string) {
  return JSON.parse(await readFile(join(home.dir, "data", "sessions", `${id}.json`), "utf8"));
}

/**
 * Starts `lass chat <args>` and waits until its `slow_count` call runs; `rest()` reads stderr
 * to its end and gives all of it, with the exit code.
 */
async function chatUntilSlowCall(args: string[]) {
  const child = spawnLass(["chat", ...args]);
  const stdout = new Response(child.stdout).text();
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let stderr = "";
  while (!/^→ demo\.slow_count/m.test(stderr)) {
    const { value, done } = await lines.read();
    assert.ok(!done, `the call never started; stderr: ${stderr}`);
    stderr += value;
  }
  return {
    child,
    stdout,
    rest: async () => {
      for (let read = await lines.read(); !read.done; read = await lines.read()) {
        stderr += read.value;
      }
      return { stderr, code: (await child.status).code };
    },
  };
}

Deno.test("lass chat prints the answer on stdout and the tool calls on stderr, exit 0", async () => {
  const home = await cliHome(chatConfig());
  try {
    const ran = await runLass(["chat", ...home.args, ADD]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout, 'Calling `demo__add` with {"a":2,"b":3}.\n`demo__add` returned 5.\n');
    assert.match(ran.stderr, /^→ demo\.add \{"a":2,"b":3\}$/m);
    assert.match(ran.stderr, /^← 5$/m);
    assert.match(
      ran.stderr,
      /^— \d+ tokens · \$0$/m,
      "the turn's tokens and cost (the demo model is free)",
    );
  } finally {
    await home.close();
  }
});

Deno.test("lass chat names a tool server the turn went without, and answers without it", async () => {
  const dead = { id: "dead", name: "Dead", transport: "stdio", command: "/nonexistent/lass-dead" };
  const home = await cliHome(chatConfig({ servers: [DEMO_SERVER, dead] }));
  try {
    const ran = await runLass(["chat", ...home.args, ADD]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stderr, /^lass: tool server dead left out \(error\): .+$/m);
    assert.doesNotMatch(ran.stderr, /tool server demo/);
    assert.match(ran.stdout, /`demo__add` returned 5\./);
  } finally {
    await home.close();
  }
});

Deno.test("lass chat waits for a server that never answers until its connect fails, and says why", async () => {
  const silent = {
    id: "silent",
    name: "Silent",
    transport: "stdio",
    command: "sleep",
    args: ["600"],
    timeoutMs: 2_000,
  };
  const home = await cliHome(chatConfig({ servers: [DEMO_SERVER, silent] }));
  try {
    const ran = await runLass(["chat", ...home.args, ADD]);
    assert.equal(ran.code, 0, ran.stderr);
    // The connect failed before the turn: the turn did not wait for it again.
    assert.match(
      ran.stderr,
      /^lass: tool server silent left out \(error\): no answer to initialize within 2 s$/m,
    );
    assert.match(ran.stdout, /`demo__add` returned 5\./);
  } finally {
    await home.close();
  }
});

Deno.test("lass chat --json prints the chunks of POST /api/chat, one per line", async () => {
  const home = await cliHome(chatConfig());
  try {
    const ran = await runLass(["chat", ...home.args, "--json", ADD]);
    assert.equal(ran.code, 0, ran.stderr);
    const chunks = parseNdjson(ran.stdout);
    assert.equal(chunks[0].type, "start");
    assert.equal(chunks.at(-1).type, "finish");
    const [call] = ofType(chunks, "tool-call");
    assert.deepEqual(
      [call.name, call.tool, call.source, call.input],
      ["demo__add", "add", "demo", { a: 2, b: 3 }],
    );
    assert.equal(ofType(chunks, "tool-result")[0].output, "5");
    assert.equal(ran.stderr, "", "--json writes nothing else");
  } finally {
    await home.close();
  }
});

Deno.test("lass chat exits 1 on an error chunk from a failing model profile", async () => {
  const vendor = await startFakeVendor();
  vendor.script([{ status: 401 }]);
  const home = await cliHome(chatConfig({ llms: [fakeLlm(vendor.url)] }));
  try {
    const json = await runLass(["chat", ...home.args, "--json", "hello"]);
    assert.equal(json.code, 1, json.stderr);
    const last = parseNdjson(json.stdout).at(-1);
    assert.equal(last.type, "error");
    const text = await runLass(["chat", ...home.args, "hello"]);
    assert.equal(text.code, 1);
    assert.match(text.stderr, /lass: the turn failed: .*401|lass: the turn failed: .*API key/i);
  } finally {
    await home.close();
    await vendor.close();
  }
});

Deno.test("lass chat: unknown workspace or model is a usage error (exit 2), no message too", async () => {
  const home = await cliHome(chatConfig());
  try {
    const workspace = await runLass(["chat", ...home.args, "--workspace", "nope", "hi"]);
    assert.equal(workspace.code, 2);
    assert.match(workspace.stderr, /lass: the chat was refused: no workspace has id nope/);
    const model = await runLass(["chat", ...home.args, "--model", "nope", "hi"]);
    assert.equal(model.code, 2);
    assert.match(model.stderr, /no model profile has id nope/);
    const empty = await runLass(["chat", ...home.args]);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /give the message/);
    const blank = await runLass(["chat", ...home.args, "hi", " "]);
    assert.equal(blank.code, 2);
    assert.match(blank.stderr, /a message is empty/);
    const noSession = await runLass(["chat", ...home.args, "--session", "", "hi"]);
    assert.equal(noSession.code, 2);
    assert.match(noSession.stderr, /--session needs a session id/);
  } finally {
    await home.close();
  }
});

Deno.test("lass chat whose stdout is closed (| head) stops the turn quietly, exit 0, the session kept", async () => {
  const home = await cliHome(chatConfig());
  try {
    const child = spawnLass(["chat", ...home.args, "--json", "--session", "s1", ADD, ADD]);
    // The reader leaves before the first line: the first write meets a closed pipe.
    await child.stdout.cancel();
    const stderr = await new Response(child.stderr).text();
    const { code } = await child.status;
    assert.equal(stderr, "", "no stack trace, no message");
    assert.equal(code, 0);
    const session = await storedSession(home, "s1");
    assert.deepEqual(session.messages.map((m: { role: string }) => m.role)[0], "user");
    assert.deepEqual(session.meta?.endings?.["0"], { aborted: true }, JSON.stringify(session));
  } finally {
    await home.close();
  }
});

Deno.test("lass chat stopped by Ctrl-C: the turn ends as aborted in the session, lass: interrupted, exit 130", async () => {
  const home = await cliHome(chatConfig());
  try {
    const running = await chatUntilSlowCall([...home.args, "--session", "s1", SLOW]);
    running.child.kill("SIGINT");
    const { stderr, code } = await running.rest();
    assert.equal(code, 130, stderr);
    assert.match(stderr, /^lass: interrupted$/m);
    await running.stdout;
    const session = await storedSession(home, "s1");
    assert.deepEqual(session.meta?.endings?.["0"], { aborted: true }, JSON.stringify(session));
  } finally {
    await home.close();
  }
});

Deno.test("lass chat --session: each message is a turn that sees the ones before, saved", async () => {
  const home = await cliHome(chatConfig());
  try {
    const first = await runLass(["chat", ...home.args, "--json", "--session", "s1", ADD, ADD]);
    assert.equal(first.code, 0, first.stderr);
    const finishes = ofType(parseNdjson(first.stdout), "finish");
    assert.equal(finishes.length, 2);
    // The second turn's prompt holds the first turn: the same message costs more input.
    assert.ok(
      finishes[1].usage.inputTokens > finishes[0].usage.inputTokens,
      `input tokens ${finishes[0].usage.inputTokens} then ${finishes[1].usage.inputTokens}`,
    );
    const again = await runLass(["chat", ...home.args, "--session", "s1", "hello"]);
    assert.equal(again.code, 0, again.stderr);
    const session = await storedSession(home, "s1");
    const users = session.messages.filter((m: { role: string }) => m.role === "user");
    assert.deepEqual(users.map((m: { content: unknown }) => m.content), [ADD, ADD, "hello"]);
    assert.ok(session.messages.some((m: { role: string }) => m.role === "tool"));
  } finally {
    await home.close();
  }
});

Deno.test("lass chat --approve all runs a tool that needs approval, none denies it", async () => {
  const home = await cliHome(chatConfig({ workspace: { requireApproval: true } }));
  try {
    const all = await runLass(["chat", ...home.args, "--approve", "all", ADD]);
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stderr, /^approved: run add \(demo\) with \{"a":2,"b":3\}/m);
    assert.match(all.stdout, /returned 5/);
    // stdin is not a terminal: the default is none.
    const none = await runLass(["chat", ...home.args, "--json", ADD]);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stderr, /^denied: run add \(demo\)/m);
    const [result] = ofType(parseNdjson(none.stdout), "tool-result");
    assert.deepEqual([result.isError, result.ending], [true, "denied"]);
    const bad = await runLass(["chat", ...home.args, "--approve", "maybe", ADD]);
    assert.equal(bad.code, 2);
  } finally {
    await home.close();
  }
});

Deno.test("lass chat --url sends the turn to a running Lass, approvals included", async () => {
  const home = await cliHome(chatConfig({ workspace: { requireApproval: true } }));
  const served = await serveLass(home.args);
  try {
    // The printed URL carries the token.
    const printed = await runLass(["chat", "--url", served.url, "--approve", "all", ADD]);
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /returned 5/);
    const viaEnv = await runLass(["chat", "--json", ADD], {
      LASS_URL: served.origin,
      LASS_TOKEN: served.token,
    });
    assert.equal(viaEnv.code, 0, viaEnv.stderr);
    assert.equal(ofType(parseNdjson(viaEnv.stdout), "tool-result")[0].ending, "denied");
    const wrong = await runLass(["chat", "--url", served.origin, "--token", "wrong", ADD]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /token is wrong/);
    const withConfig = await runLass(["chat", "--url", served.url, "--config", "x.json", ADD]);
    assert.equal(withConfig.code, 0, withConfig.stderr);
    assert.match(withConfig.stderr, /^lass: --config is not used with --url/m);
    const noToken = await runLass(["chat", "--url", served.origin, ADD]);
    assert.equal(noToken.code, 2);
    assert.match(noToken.stderr, /needs the service token/);
  } finally {
    await served.stop();
    await home.close();
  }
});

Deno.test("lass chat --url: a server that goes away mid-turn, or one that is not Lass, is one line and exit 1", async () => {
  const home = await cliHome(chatConfig());
  const served = await serveLass(home.args);
  let stopped = false;
  try {
    const running = await chatUntilSlowCall(["--url", served.url, SLOW]);
    stopped = true;
    await served.stop();
    const { stderr, code } = await running.rest();
    assert.equal(code, 1, stderr);
    assert.match(await running.stdout, /Calling `demo__slow_count`/);
    assert.doesNotMatch(stderr, /Uncaught|^\s+at /m, `no stack trace: ${stderr}`);
    assert.match(stderr, /^lass: .+/m);
  } finally {
    if (!stopped) await served.stop();
    await home.close();
  }

  const other = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response("<!DOCTYPE html><p>Not found", {
        status: 404,
        headers: { "content-type": "text/html" },
      }),
  );
  try {
    const ran = await runLass([
      "chat",
      "--url",
      `http://127.0.0.1:${other.addr.port}`,
      "--token",
      "x",
      "hi",
    ]);
    assert.equal(ran.code, 1, ran.stderr);
    assert.match(ran.stderr, /not from a Lass API \(404 Not Found, text\/html\)/);
    assert.doesNotMatch(ran.stderr, /DOCTYPE/);
  } finally {
    await other.shutdown();
  }
});

Deno.test("lass chat --model picks another profile of the config", async () => {
  const home = await cliHome(chatConfig({ llms: [DEMO_LLM, { ...DEMO_LLM, id: "other" }] }));
  try {
    const ran = await runLass(["chat", ...home.args, "--json", "--model", "other", "hello"]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(parseNdjson(ran.stdout)[0].profileId, "other");
  } finally {
    await home.close();
  }
});

Deno.test("lass chat --compare prints each column's answer, then the summary table; one id is a usage error", async () => {
  const vendor = await startFakeVendor();
  vendor.script([{ text: ["Five", "."], usage: { input: 12, output: 3 } }]);
  const home = await cliHome(chatConfig({ llms: [DEMO_LLM, fakeLlm(vendor.url)] }));
  try {
    const ran = await runLass(["chat", ...home.args, "--compare", "demo,fake", ADD]);
    assert.equal(ran.code, 0, ran.stderr);
    const [first, second] = ran.stdout.split(/^── 2\. fake ──$/m);
    assert.match(
      first,
      /^── 1\. demo ──\nCalling `demo__add` with \{"a":2,"b":3\}\.\n`demo__add` returned 5\.\n/,
    );
    assert.match(second, /^\nFive\.\n/m);
    const rows = second.trim().split("\n").slice(-3);
    assert.match(rows[0], /^#\s+column\s+time\s+tokens in\/out\s+cost\s+tool calls\s+steps/);
    // The demo model is free; the catalog has no price for fake-large.
    assert.match(rows[1], /^1\s+demo\s+[\d.]+ s\s+\S+\s+\$0\s+1\s+2$/);
    assert.match(rows[2], /^2\s+fake\s+[\d.]+ s\s+12\/3\s+-\s+0\s+1$/);
    assert.match(ran.stderr, /^→ demo\.add \{"a":2,"b":3\}$/m);
    const one = await runLass(["chat", ...home.args, "--compare", "demo", "hi"]);
    assert.equal(one.code, 2);
    assert.match(one.stderr, /--compare takes 2 to 4 model profile ids/);
  } finally {
    await home.close();
    await vendor.close();
  }
});

Deno.test("lass call prints a tool's result as JSON; an error result exits 1, bad arguments 2", async () => {
  const home = await cliHome(chatConfig());
  try {
    const ran = await runLass(["call", ...home.args, "demo", "add", '{"a":2,"b":3}']);
    assert.equal(ran.code, 0, ran.stderr);
    const result = JSON.parse(ran.stdout);
    assert.deepEqual(result.structuredContent, { sum: 5 });
    assert.equal(result.content[0].text, "5");
    const failed = await runLass(["call", ...home.args, "demo", "fail"]);
    assert.equal(failed.code, 1);
    assert.equal(JSON.parse(failed.stdout).isError, true);
    const bad = await runLass(["call", ...home.args, "demo", "add", "[1]"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /the arguments must be a JSON object/);
    const unknown = await runLass(["call", ...home.args, "nope", "add"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /lass: the call of nope\.add failed: .*nope/);
  } finally {
    await home.close();
  }
});
