import assert from "node:assert/strict";
import {
  checkInputSchema,
  checkOutputSchema,
  checkServer,
  checkToolName,
} from "../../core/mcp/tool_checks.ts";
import { emptyState } from "../../core/mcp/manager/state.ts";
import { type ToolInfo, type ToolServerState } from "../../wire/tool_servers.ts";

const NUMBER = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };

function tool(name: string, extra: Partial<ToolInfo> = {}): ToolInfo {
  return {
    name,
    description: `The ${name} tool`,
    inputSchema: NUMBER,
    disabled: false,
    modelName: `s__${name}`,
    modelVisible: true,
    ...extra,
  };
}

function connected(tools: ToolInfo[], prompts: string[] = []): ToolServerState {
  return {
    ...emptyState({ id: "s", name: "S", transport: "stdio" } as never),
    status: "connected",
    tools,
    prompts: prompts.map((name) => ({ name })),
    subscriptions: [],
  };
}

Deno.test("tool names: provider-safe names pass, long or dotted ones are errors", () => {
  assert.deepEqual(checkToolName("demo", "add"), []);
  assert.deepEqual(checkToolName("demo", "a-b_C9"), []);
  const long = checkToolName("demo", "x".repeat(65));
  assert.equal(long.length, 1);
  assert.equal(long[0].severity, "error");
  assert.match(long[0].message, /65 characters long/);
  const dotted = checkToolName("demo", "files.read");
  assert.equal(dotted[0].severity, "error");
  assert.match(dotted[0].message, /other than letters, digits/);
  assert.match(dotted[0].message, /demo__files_read_[0-9a-f]{8}/);
});

Deno.test("tool names: a model name past 64 characters is a warning naming the shortened one", () => {
  const problems = checkToolName("s".repeat(40), "t".repeat(30));
  assert.equal(problems.length, 1);
  assert.equal(problems[0].severity, "warning");
  assert.match(
    problems[0].message,
    /longer than 64 characters; the model sees s+__t+_[0-9a-f]{8}$/,
  );
});

Deno.test("input schemas: a plain object schema passes, with or without a $schema dialect", () => {
  assert.deepEqual(checkInputSchema(NUMBER), []);
  assert.deepEqual(checkInputSchema({ type: "object" }), []);
  assert.deepEqual(
    checkInputSchema({ $schema: "https://json-schema.org/draft/2020-12/schema", ...NUMBER }),
    [],
  );
  assert.deepEqual(
    checkInputSchema({
      type: "object",
      properties: { ids: { type: "array", items: { type: "string" } } },
    }),
    [],
  );
});

Deno.test("input schemas: what is not JSON Schema is an error at its path", () => {
  const problems = checkInputSchema({
    type: "object",
    properties: { count: 5, kind: { type: "strng" } },
  });
  assert.equal(problems.length, 1);
  assert.equal(problems[0].severity, "error");
  assert.match(problems[0].message, /not valid JSON Schema: properties\.count must be object/);
  assert.match(problems[0].message, /properties\.kind\.type must be equal to one of/);
  assert.match(checkInputSchema("object")[0].message, /not a JSON object/);
});

Deno.test("input schemas: what providers refuse at the top level and arrays without items", () => {
  const messages = (schema: unknown) => checkInputSchema(schema).map((p) => p.message);
  assert.match(messages({ properties: {} })[0], /has no type/);
  assert.match(messages({ type: "string" })[0], /type is "string"/);
  const union = messages({ type: "object", anyOf: [{ required: ["a"] }] });
  assert.deepEqual(union.length, 1);
  assert.match(union[0], /anyOf at the top level/);
  const nested = messages({
    type: "object",
    properties: {
      rows: { type: "array", items: { type: "object", properties: { t: { type: "array" } } } },
    },
  });
  assert.deepEqual(nested, [
    "the array at properties.rows.items.properties.t has no items schema, which OpenAI refuses",
  ]);
});

Deno.test("input schemas: required names without a property are a warning", () => {
  const problems = checkInputSchema({ ...NUMBER, required: ["n", "m"] });
  assert.deepEqual(problems, [{
    severity: "warning",
    message: "required names properties the schema does not have: m",
  }]);
});

Deno.test("servers: duplicates, empty descriptions, and only the tools the model sees", () => {
  const problems = checkServer(connected([
    tool("twice"),
    tool("twice"),
    tool("quiet", { description: " " }),
    tool("app.only", { modelVisible: false }),
  ], ["p", "p"]));
  assert.deepEqual(
    problems.map((p) => `${p.severity} ${p.subject}`),
    ["error tool twice", "error prompt p", "warning tool quiet"],
  );
});

Deno.test("servers: one that is not connected is one connection error with its reason", () => {
  const failed = { ...connected([]), status: "error" as const, error: "command not found: x" };
  assert.deepEqual(checkServer(failed), [{
    severity: "error",
    subject: "connection",
    message: "command not found: x",
  }]);
  const auth = checkServer({ ...connected([]), status: "needs-auth" });
  assert.match(auth[0].message, /needs sign-in/);
});

Deno.test("an output schema the client cannot compile is an error: every call would fail", () => {
  assert.deepEqual(
    checkOutputSchema({ type: "object", properties: { n: { type: "number" } } }),
    [],
  );
  const pattern = checkOutputSchema({
    type: "object",
    properties: { code: { type: "string", pattern: "(" } },
  });
  assert.equal(pattern.length, 1);
  assert.equal(pattern[0].severity, "error");
  assert.match(pattern[0].message, /^the output schema cannot be compiled.*regular expression/);
  const dialect = checkOutputSchema({ $schema: "https://example.com/my-dialect", type: "object" });
  assert.equal(dialect.length, 1);
  assert.match(dialect[0].message, /cannot be compiled/);
});
