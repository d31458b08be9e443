import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { chatConfig, DEMO_SERVER } from "../_chat.ts";
import { cliHome, runLass } from "../_cli.ts";
import { LONG_NAME } from "../fixtures/bad_tools_server.ts";

const BAD_SERVER = {
  id: "bad",
  name: "Bad tools",
  transport: "stdio",
  command: Deno.execPath(),
  args: ["run", "-A", new URL("../fixtures/bad_tools_server.ts", import.meta.url).pathname],
};
const DEAD_SERVER = {
  id: "dead",
  name: "Dead",
  transport: "stdio",
  command: "/nonexistent/lass-no-such-server",
};

/** A config whose active workspace `w` uses the demo, bad and dead servers; `good` only the demo. */
function mixedConfig() {
  const config = chatConfig({ servers: [DEMO_SERVER, BAD_SERVER, DEAD_SERVER] });
  const workspaces = config.workspaces as Record<string, unknown>[];
  workspaces.push({ id: "good", name: "Good", mcpServerIds: ["demo"] });
  return config;
}

/** The attributes of each element `name` in an XML text (a small reader for JUnit's shape). */
function elements(xml: string, name: string): Record<string, string>[] {
  return [...xml.matchAll(new RegExp(`<${name}\\b([^>]*)>`, "g"))].map((match) =>
    Object.fromEntries([...match[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]]))
  );
}

/** Whether every element opened in an XML text is closed in order (well-formed nesting). */
function wellFormed(xml: string): boolean {
  const open: string[] = [];
  for (const tag of xml.replace(/<\?xml[^>]*\?>/, "").matchAll(/<(\/?)([\w-]+)[^>]*?(\/?)>/g)) {
    if (tag[3] === "/") continue;
    if (tag[1] === "") open.push(tag[2]);
    else if (open.pop() !== tag[2]) return false;
  }
  return open.length === 0;
}

Deno.test("lass check passes a good workspace: table on stdout, exit 0", async () => {
  const home = await cliHome(mixedConfig());
  try {
    const ran = await runLass(["check", ...home.args, "--workspace", "good"]);
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /^SERVER\s+STATUS\s+ERA\s+TOOLS\s+PROMPTS\s+RESOURCES\s+PROBLEMS$/m);
    assert.match(ran.stdout, /^demo\s+connected\s+modern\s+\d+\s+\d+\s+\d+\s+ok$/m);
    assert.match(ran.stdout, /^demo\s+compatible-api\s+demo\s+\d+ ms\s+ok$/m);
    assert.match(ran.stdout, /1 server and 1 model of good: ok/);
  } finally {
    await home.close();
  }
});

Deno.test("lass check names each problem, writes JUnit, and exits 1", async () => {
  const home = await cliHome(mixedConfig());
  const junit = join(home.dir, "check.xml");
  try {
    const ran = await runLass(["check", ...home.args, "--junit", junit]);
    assert.equal(ran.code, 1, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /^bad\s+connected\s+\w+\s+9\s+.*6 errors, 1 warning$/m);
    assert.match(ran.stdout, /^dead\s+error\s+-\s+0\s+.*1 error$/m);
    const expected = [
      `error: server bad: tool ${LONG_NAME}: the name is 70 characters long`,
      "error: server bad: tool dotted.name: the name has characters other than",
      "error: server bad: tool bad_schema: the input schema is not valid JSON Schema: " +
      "properties.count must be object,boolean; properties.kind.type must be equal to one of",
      "error: server bad: tool list_without_items: the array at properties.ids has no items",
      "error: server bad: tool twice: more than one tool has this name",
      "warning: server bad: tool silent: the description is empty",
      "error: server bad: tool bad_output: the output schema cannot be compiled, so every call " +
      "of the tool fails: ",
      "error: server dead: connection: ",
    ];
    for (const line of expected) assert.ok(ran.stdout.includes(line), `missing: ${line}`);
    assert.match(ran.stdout, /3 servers and 1 model of w: 7 errors, 1 warning/);

    const xml = await readFile(junit, "utf8");
    assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>'));
    assert.ok(wellFormed(xml), xml);
    assert.deepEqual(elements(xml, "testsuites")[0].tests, "4");
    assert.deepEqual(elements(xml, "testsuites")[0].failures, "2");
    const cases = elements(xml, "testcase");
    assert.deepEqual(
      cases.map((c) => `${c.classname} ${c.name}`),
      [
        "lass.check.server demo",
        "lass.check.server bad",
        "lass.check.server dead",
        "lass.check.model demo",
      ],
    );
    const failures = elements(xml, "failure").map((f) => f.message);
    assert.equal(failures.length, 2);
    assert.match(failures[0], /^6 errors: /);
    assert.match(failures[1], /^1 error: connection: /);
  } finally {
    await home.close();
  }
});

Deno.test("lass check --json prints the report; --all takes every workspace", async () => {
  const home = await cliHome(mixedConfig());
  try {
    const ran = await runLass(["check", ...home.args, "--all", "--json"]);
    assert.equal(ran.code, 1);
    const report = JSON.parse(ran.stdout);
    assert.deepEqual(report.workspaces, ["w", "good"]);
    assert.deepEqual(report.servers.map((s: { id: string }) => s.id), ["demo", "bad", "dead"]);
    assert.deepEqual([report.errors, report.warnings, report.ok], [7, 1, false]);
    const bad = report.servers[1];
    assert.equal(bad.status, "connected");
    assert.ok(bad.problems.some((p: { subject: string }) => p.subject === `tool ${LONG_NAME}`));
    assert.equal(report.models[0].ok, true);
    const both = await runLass(["check", ...home.args, "--all", "--workspace", "w"]);
    assert.equal(both.code, 2);
    const unknown = await runLass(["check", ...home.args, "--workspace", "nope"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no workspace has id nope/);
  } finally {
    await home.close();
  }
});

Deno.test("lass check fails a model profile that does not answer", async () => {
  const config = chatConfig({
    llms: [{
      id: "gone",
      name: "Gone",
      provider: "compatible-api",
      model: "m",
      baseURL: "http://127.0.0.1:9/v1",
    }],
  });
  const home = await cliHome(config);
  try {
    const ran = await runLass(["check", ...home.args]);
    assert.equal(ran.code, 1, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /^gone\s+compatible-api\s+m\s+\d+ ms\s+1 error$/m);
    assert.match(ran.stdout, /^error: model gone: llm\/test: /m);
  } finally {
    await home.close();
  }
});

Deno.test("lass check --junit creates missing folders, and a file it cannot write never hides the table", async () => {
  const home = await cliHome(mixedConfig());
  try {
    const nested = join(home.dir, "reports", "ci", "check.xml");
    const ran = await runLass(["check", ...home.args, "--workspace", "good", "--junit", nested]);
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    assert.deepEqual(elements(await readFile(nested, "utf8"), "testsuites")[0].failures, "0");
    // A folder that cannot be made: its parent is a file.
    const blocked = join(home.configPath, "check.xml");
    const failed = await runLass([
      "check",
      ...home.args,
      "--workspace",
      "good",
      "--junit",
      blocked,
    ]);
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    assert.match(failed.stdout, /1 server and 1 model of good: ok/, "the table came first");
    assert.match(failed.stderr, /^lass: cannot write the JUnit report .*check\.xml: /m);
  } finally {
    await home.close();
  }
});
