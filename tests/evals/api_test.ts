import assert from "node:assert/strict";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { chatConfig, fakeLlm, parseNdjson, readChunks } from "../_chat.ts";
import { type Json, post, serveOverHttp, startService, TOKEN, waitForEvent } from "../_helpers.ts";
import { startFakeVendor } from "../fixtures/fake_vendors.ts";

const EXAMPLE = new URL("../../examples/demo.eval.yaml", import.meta.url);

/** Posts an eval run and reads every line of the stream. */
async function runEval(
  t: Awaited<ReturnType<typeof startService>>,
  body: unknown,
): Promise<{ status: number; type: string | null; lines: Json[] }> {
  const response = await t.call("/api/evals/run", { method: "POST", json: body });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    lines: parseNdjson(await response.text()),
  };
}

Deno.test("POST /api/evals/run streams progress lines, then the report", async () => {
  const t = await startService();
  try {
    const text = await readFile(EXAMPLE, "utf8");
    const file = parseYaml(text);
    const { status, type, lines } = await runEval(t, { eval: file, repeat: 2 });
    assert.equal(status, 200);
    assert.match(type!, /application\/x-ndjson/);
    assert.deepEqual(lines[0], {
      type: "start",
      workspace: "playground",
      models: ["demo"],
      cases: 4,
      runs: 8,
    });
    const runs = lines.filter((line) => line.type === "run");
    assert.equal(runs.length, 8);
    assert.ok(runs.every((line) => line.passed && line.tokens > 0), JSON.stringify(runs));
    const report = lines.at(-1);
    assert.equal(report.type, "report");
    assert.deepEqual(
      report.cases.map((c: Json) => [c.name, c.model, c.runs, c.passed, c.passRate]),
      file.cases.map((c: Json) => [c.name, "demo", 2, 2, 1]),
    );
    assert.deepEqual([report.runs, report.passed, report.passRate], [8, 8, 1]);
    // The file's text works as well as the object.
    const fromText = await runEval(t, { eval: text });
    assert.equal(fromText.lines.at(-1).passRate, 1);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/evals/run: a failing case names its expectation and carries the turn's chunks", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const { lines } = await runEval(t, {
      eval: {
        cases: [{
          name: "wrong sum",
          prompt: "Add 2 and 3 with a tool",
          expect: { calls: [{ tool: "demo__add", args: { a: 4 } }], notCalled: ["demo__add"] },
        }],
      },
      shard: "1/1",
    });
    const run = lines.find((line) => line.type === "run");
    assert.equal(run.passed, false);
    assert.equal(
      run.reason,
      'calls.0: demo__add was called, but it has arguments {"a":2,"b":3}, not {"a":4}; ' +
        "notCalled: demo__add was called",
    );
    const report = lines.at(-1);
    const { evalHash, ...shard } = report.shard;
    assert.deepEqual(shard, { index: 1, count: 1, models: ["demo"], repeat: 1, totalRuns: 1 });
    assert.match(evalHash, /^sha256:[0-9a-f]{64}$/);
    const [failure] = report.cases[0].failures;
    assert.equal(failure.run, 1);
    assert.deepEqual(failure.reasons.length, 2);
    assert.ok(failure.chunks.some((chunk: Json) => chunk.type === "tool-result"));
    assert.equal(failure.chunks.at(-1).type, "finish");
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/evals/run refuses an invalid eval with 400 and every problem at its path", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const bad = await post(t, "/api/evals/run", {
      eval: { workspace: 3, cases: [{ name: "a", expect: { maxSteps: 0, colls: [] } }] },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, "invalid-request");
    assert.deepEqual(bad.body.error.details.map((d: Json) => d.path).sort(), [
      "eval.cases.0.expect.colls",
      "eval.cases.0.expect.maxSteps",
      "eval.cases.0.prompt",
      "eval.workspace",
    ]);
    const refs = await post(t, "/api/evals/run", {
      eval: { workspace: "nope", cases: [{ name: "a", prompt: "hi" }] },
      models: ["demo", "ghost"],
    });
    assert.equal(refs.status, 400);
    assert.deepEqual(refs.body.error.details, [
      { path: "eval.workspace", message: 'no workspace has id "nope"' },
      { path: "models.1", message: 'no model profile has id "ghost"' },
    ]);
    const body = await post(t, "/api/evals/run", { models: [], repeat: 0, shard: "3/2" });
    assert.deepEqual(body.body.error.details.map((d: Json) => d.path).sort(), [
      "eval",
      "models",
      "repeat",
    ]);
    const yaml = await post(t, "/api/evals/run", { eval: "cases:\n  - name: a\n   prompt: [" });
    assert.equal(yaml.status, 400);
    assert.equal(yaml.body.error.details[0].path, "eval");
    assert.match(yaml.body.error.details[0].message, /^not valid YAML \(line \d\)/);
    const shard = await post(t, "/api/evals/run", {
      eval: { cases: [{ name: "a", prompt: "hi" }] },
      shard: "3/2",
    });
    assert.deepEqual(shard.body.error.details.map((d: Json) => d.path), ["shard"]);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/evals/run: a client that goes away stops the runs", async () => {
  const vendor = await startFakeVendor();
  vendor.script([{ text: Array.from({ length: 50 }, () => "slow "), chunkDelayMs: 100 }]);
  const t = await startService({ config: chatConfig({ llms: [fakeLlm(vendor.url)] }) });
  const server = serveOverHttp(t);
  try {
    const started = waitForEvent(t, (event) => event.type === "chat.start", {
      what: "chat.start of the first run",
    });
    const aborted = waitForEvent(t, (event) => event.type === "chat.error", {
      what: "chat.error of the aborted run",
      ms: 30_000,
    });
    const response = await fetch(`${server.url}/api/evals/run`, {
      method: "POST",
      headers: { "x-service-token": TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ eval: { cases: [{ name: "slow", prompt: "hi" }] }, repeat: 3 }),
    });
    // The client goes away once a turn is under way.
    const lines = await readChunks(response, async (line) => {
      if (line.type !== "start") return false;
      await started;
      return true;
    });
    assert.equal(lines[0].runs, 3);
    const event = await aborted;
    assert.equal((event.data as Json).aborted, true);
  } finally {
    await server.close();
    await t.close();
    await vendor.close();
  }
});

Deno.test("GET /api/evals/files lists and reads eval files beside the config, and nothing else", async () => {
  const t = await startService();
  try {
    const outside = join(t.dir, "..", `lass-outside-${crypto.randomUUID()}.eval.yaml`);
    await writeFile(outside, "secret: 1\n");
    await writeFile(join(t.dir, "b.eval.yaml"), "cases: []\n");
    await writeFile(join(t.dir, "a.eval.json"), '{"cases": []}');
    await writeFile(join(t.dir, "c.eval.yml"), "cases: []\n");
    await writeFile(join(t.dir, ".hidden.eval.yaml"), "cases: []\n");
    await writeFile(join(t.dir, "notes.yaml"), "x: 1\n");
    await mkdir(join(t.dir, "dir.eval.yaml"));
    await symlink(outside, join(t.dir, "link.eval.yaml"));
    const list = await (await t.call("/api/evals/files")).json();
    assert.equal(list.folder, t.dir);
    assert.deepEqual(list.files.map((f: Json) => f.name), [
      "a.eval.json",
      "b.eval.yaml",
      "c.eval.yml",
    ]);
    assert.equal(list.files[1].size, 10);
    const read = await (await t.call("/api/evals/files/b.eval.yaml")).json();
    assert.deepEqual(read, { name: "b.eval.yaml", text: "cases: []\n" });
    for (
      const name of [
        "link.eval.yaml",
        ".hidden.eval.yaml",
        "dir.eval.yaml",
        "service.json",
        "notes.yaml",
        "..%2Fservice.json",
        `..%2F${outside.split("/").at(-1)}`,
        "%2E%2E%2Fb.eval.yaml",
        encodeURIComponent(outside),
        "missing.eval.yaml",
      ]
    ) {
      const response = await t.call(`/api/evals/files/${name}`);
      const body = await response.json();
      assert.deepEqual([response.status, body.error?.code], [404, "not-found"], name);
    }
    const traversal = await t.call("/api/evals/files/../service.json");
    await traversal.body?.cancel();
    assert.equal(traversal.status, 404, "the URL's .. never reaches the folder");
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/evals/run reports schema and reference problems together, in document order", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const bad = await post(t, "/api/evals/run", {
      eval: { workspace: "nows", cases: [{ name: "a", prompt: "hi" }, { name: "b" }] },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.error.details, [
      { path: "eval.workspace", message: 'no workspace has id "nows"' },
      { path: "eval.cases.1.prompt", message: "a case needs `prompt`, `messages` or `turns`" },
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/evals/run warns about misspelt fields in lines before start, and runs", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const { status, lines } = await runEval(t, {
      eval: "modles: [demo]\ncases:\n  - name: a\n    prompt: hi\n    expects: { calls: [] }\n",
    });
    assert.equal(status, 200);
    assert.deepEqual(lines.slice(0, 2), [
      { type: "warning", path: "eval.modles", message: "unknown field; did you mean models?" },
      {
        type: "warning",
        path: "eval.cases.0.expects",
        message: "unknown field; did you mean expect?",
      },
    ]);
    assert.equal(lines[2].type, "start");
    assert.equal(lines.at(-1).type, "report");
    assert.equal(lines.at(-1).passRate, 1);
  } finally {
    await t.close();
  }
});
