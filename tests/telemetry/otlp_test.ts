/**
 * OpenTelemetry export (issue 29): a receiver on loopback decodes what Lass sends, in both OTLP
 * encodings, and the tests check the span tree of a chat turn (turn → steps → tool call → MCP
 * request), its attributes, the trace context a tool server receives, the env-variable setup,
 * config reloads, eval runs, and that nothing of the SDK loads while telemetry is off.
 */
import assert from "node:assert/strict";
import { chat, chatConfig, ofType, parseNdjson, user } from "../_chat.ts";
import { eventSeen, startService, type TestService } from "../_helpers.ts";
import { ServiceConfigSchema } from "../../wire/config/schema.ts";
import { redactConfig } from "../../core/config/redact.ts";
import { telemetrySettings, tracesUrl } from "../../core/telemetry/settings.ts";
import { parseEval } from "../../core/evals/file.ts";
import { prepareEval } from "../../core/evals/runner.ts";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../_otlp.ts";
import { telemetrySdkLoaded } from "../../core/telemetry/telemetry.ts";

/** The stdio fixture that answers with the trace context of its `tools/call`. */
const TRACE_SERVER = {
  id: "probe",
  name: "Probe",
  transport: "stdio",
  command: Deno.execPath(),
  args: ["run", "-A", new URL("../fixtures/traceparent_server.ts", import.meta.url).pathname],
};

/** The spans of one trace, by name, failing with the names seen when one is missing. */
function byName(spans: ReceivedSpan[], name: string): ReceivedSpan[] {
  const found = spans.filter((span) => span.name === name);
  assert.ok(found.length > 0, `no span ${name}; got ${spans.map((span) => span.name).join(", ")}`);
  return found;
}

/** Runs a chat turn and sends its spans; answers the chunks and the spans of its trace. */
async function tracedTurn(t: TestService, receiver: OtlpReceiver, prompt: string) {
  const { chunks } = await chat(t, { messages: [user(prompt)] });
  assert.equal(chunks.at(-1).type, "finish", JSON.stringify(chunks.at(-1)));
  await t.service.telemetry.flush();
  const runId = chunks[0].runId;
  const turn = receiver.spans.find((span) => span.attributes["lass.run.id"] === runId);
  assert.ok(turn, `no turn span for run ${runId}; got ${receiver.spans.map((s) => s.name)}`);
  return { chunks, turn, spans: receiver.spans.filter((span) => span.traceId === turn.traceId) };
}

Deno.test("telemetry is off by default: a chat turn loads no OpenTelemetry module and opens no span", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const { chunks } = await chat(t, { messages: [user("please add 2 and 3")] });
    assert.equal(chunks.at(-1).type, "finish");
    assert.equal(t.service.telemetry.tracing, undefined);
    assert.equal(t.service.telemetry.startSpan("x"), undefined);
    assert.equal(telemetrySdkLoaded(), false, "the SDK module was loaded with telemetry off");
    assert.ok(!t.service.events.history().some((event) => event.type.startsWith("telemetry.")));
  } finally {
    await t.close();
  }
});

Deno.test("a chat turn is one trace over http/json: turn, steps with usage, the tool call, its MCP request", async () => {
  const receiver = startOtlpReceiver();
  const t = await startService({
    config: {
      ...chatConfig(),
      telemetry: {
        otlp: {
          endpoint: receiver.endpoint,
          protocol: "http/json",
          headers: { authorization: "Bearer ${OTLP_TOKEN}" },
        },
        serviceName: "lass-test",
      },
    },
    env: { OTLP_TOKEN: "sekret" },
  });
  try {
    const before = Date.now();
    const { chunks, turn, spans } = await tracedTurn(t, receiver, "please add 2 and 3");
    const after = Date.now();
    assert.ok(receiver.requests.every((r) => r.contentType.startsWith("application/json")));
    for (const span of spans) {
      // Wall-clock times (the clock's ms, so a span may start within 1 ms before `before`).
      assert.ok(span.startMs >= before - 1 && span.endMs <= after + 1, `${span.name} in the turn`);
      assert.ok(span.startMs <= span.endMs, `${span.name} ends after it starts`);
      const parent = spans.find((other) => other.spanId === span.parentSpanId);
      if (parent) assert.ok(parent.startMs <= span.startMs && span.endMs <= parent.endMs + 1);
    }
    assert.equal(receiver.requests[0].headers.get("authorization"), "Bearer sekret");
    assert.equal(turn.resource["service.name"], "lass-test");
    assert.equal(turn.name, "invoke_agent W");
    assert.equal(turn.parentSpanId, "");
    const finish = chunks.at(-1);
    assert.deepEqual(
      {
        operation: turn.attributes["gen_ai.operation.name"],
        agent: turn.attributes["gen_ai.agent.id"],
        model: turn.attributes["gen_ai.request.model"],
        provider: turn.attributes["gen_ai.provider.name"],
        input: turn.attributes["gen_ai.usage.input_tokens"],
        output: turn.attributes["gen_ai.usage.output_tokens"],
        steps: turn.attributes["lass.steps"],
      },
      {
        operation: "invoke_agent",
        agent: "w",
        model: "demo",
        provider: "compatible-api",
        input: finish.usage.inputTokens,
        output: finish.usage.outputTokens,
        steps: 2,
      },
    );
    // Two model steps under the turn, each with its own usage.
    const steps = byName(spans, "chat demo");
    const stepChunks = ofType(chunks, "step");
    assert.equal(steps.length, 2);
    steps.sort((a, b) => Number(a.attributes["lass.step"]) - Number(b.attributes["lass.step"]));
    steps.forEach((step, index) => {
      assert.equal(step.parentSpanId, turn.spanId);
      assert.equal(step.kind, 3, "a model call is a client span");
      assert.equal(step.attributes["gen_ai.operation.name"], "chat");
      assert.equal(step.attributes["gen_ai.request.model"], "demo");
      assert.equal(step.attributes["gen_ai.system"], "compatible-api");
      assert.equal(
        step.attributes["gen_ai.usage.input_tokens"],
        stepChunks[index].usage.inputTokens,
      );
      assert.equal(
        step.attributes["gen_ai.usage.output_tokens"],
        stepChunks[index].usage.outputTokens,
      );
      assert.deepEqual(step.attributes["gen_ai.response.finish_reasons"], [
        stepChunks[index].finishReason,
      ]);
    });
    // The tool call under the first step, the MCP request under the tool call.
    const [call] = ofType(chunks, "tool-call");
    const [tool] = byName(spans, "execute_tool demo__add");
    assert.equal(tool.parentSpanId, steps[0].spanId);
    assert.deepEqual(
      [tool.attributes["gen_ai.tool.name"], tool.attributes["gen_ai.tool.call.id"]],
      ["demo__add", call.id],
    );
    assert.equal(tool.attributes["gen_ai.operation.name"], "execute_tool");
    const [request] = byName(spans, "tools/call add");
    assert.equal(request.parentSpanId, tool.spanId);
    assert.equal(request.kind, 3);
    assert.equal(request.attributes["mcp.method.name"], "tools/call");
    assert.equal(request.attributes["gen_ai.tool.name"], "add");
    assert.equal(request.attributes["gen_ai.operation.name"], "execute_tool");
    // The demo server speaks 2026 tasks: the call goes through Lass's raw task channel.
    assert.ok(String(request.attributes["jsonrpc.request.id"]).length > 0);
    assert.equal(
      request.attributes["mcp.protocol.version"],
      t.service.mcp.state("demo").protocolVersion,
    );
    assert.equal(request.attributes["network.transport"], "inproc");
    assert.ok(spans.every((span) => span.status.code !== 2), "no span failed");
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("over http/protobuf a tool server gets the trace context of its tools/call in params._meta", async () => {
  const receiver = startOtlpReceiver();
  const t = await startService({
    config: {
      ...chatConfig({ servers: [TRACE_SERVER] }),
      telemetry: { otlp: { endpoint: `${receiver.endpoint}/v1/traces` } },
    },
  });
  try {
    const { chunks, turn, spans } = await tracedTurn(t, receiver, "please call probe__traceparent");
    assert.ok(receiver.requests.every((r) => r.contentType === "application/x-protobuf"));
    assert.equal(turn.resource["service.name"], "lass");
    const [result] = ofType(chunks, "tool-result");
    const seen = JSON.parse(String(result.output));
    const [request] = byName(spans, "tools/call traceparent");
    const [tool] = byName(spans, "execute_tool probe__traceparent");
    assert.equal(request.parentSpanId, tool.spanId);
    // The server's spans would be children of the MCP request's span, in the turn's trace.
    assert.equal(seen.traceparent, `00-${turn.traceId}-${request.spanId}-01`);
    assert.equal(request.attributes["network.transport"], "pipe");
    assert.equal(
      request.attributes["mcp.protocol.version"],
      t.service.mcp.state("probe").protocolVersion,
    );
    assert.equal(typeof request.attributes["jsonrpc.request.id"], "string");
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("the OTEL_EXPORTER_OTLP_* variables turn telemetry on; closing the service sends the last spans", async () => {
  const receiver = startOtlpReceiver();
  const t = await startService({
    config: chatConfig(),
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=abc%20def,x-team=lass",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "from-env",
    },
  });
  let closed = false;
  try {
    const { chunks } = await chat(t, { messages: [user("please echo 'hi'")] });
    assert.equal(chunks.at(-1).type, "finish");
    await t.close();
    closed = true;
    const turn = receiver.spans.find((span) => span.attributes["lass.run.id"] === chunks[0].runId);
    assert.ok(turn, "the turn's span was sent when the service closed");
    assert.equal(turn.resource["service.name"], "from-env");
    assert.equal(receiver.requests[0].headers.get("x-api-key"), "abc def");
    assert.equal(receiver.requests[0].headers.get("x-team"), "lass");
    assert.ok(receiver.requests[0].contentType.startsWith("application/json"));
  } finally {
    if (!closed) await t.close();
    await receiver.close();
  }
});

Deno.test("a config change turns telemetry on and off; an eval run and a compare turn are traces of their turns", async () => {
  const receiver = startOtlpReceiver();
  const t = await startService({ config: chatConfig() });
  try {
    const config = await (await t.call("/api/config")).json();
    const on = await t.call("/api/config", {
      method: "PUT",
      json: { ...config, telemetry: { otlp: { endpoint: receiver.endpoint } } },
    });
    assert.equal(on.status, 200, await on.text());
    await t.service.telemetry.settled();
    assert.ok(t.service.telemetry.tracing, "on after the change");
    assert.ok(t.service.events.history().some((event) => event.type === "telemetry.on"));

    const file = parseEval({
      workspace: "w",
      cases: [
        { name: "adds", prompt: "please add 2 and 3", expect: { calls: [{ tool: "demo__add" }] } },
        { name: "echoes", prompt: "please echo 'x'", expect: { calls: [{ tool: "demo__echo" }] } },
      ],
    });
    const report = await prepareEval(t.service, file).run();
    assert.equal(report.passed, 2, JSON.stringify(report.cases));
    await t.service.telemetry.flush();
    const [root] = byName(receiver.spans, "eval w");
    assert.equal(root.parentSpanId, "");
    assert.equal(root.attributes["lass.eval.passed"], 2);
    const trace = receiver.spans.filter((span) => span.traceId === root.traceId);
    for (const name of ["adds", "echoes"]) {
      const [item] = byName(trace, `eval_case ${name}`);
      assert.equal(item.parentSpanId, root.spanId);
      const turns = trace.filter((span) => span.parentSpanId === item.spanId);
      assert.deepEqual(turns.map((span) => span.name), ["invoke_agent W"]);
      assert.ok(trace.some((span) => span.parentSpanId === turns[0].spanId), "its steps follow");
    }

    const compared = await t.call("/api/chat/compare", {
      method: "POST",
      json: {
        messages: [user("please add 2 and 3")],
        columns: [{ llmId: "demo" }, { llmId: "demo", label: "again" }],
      },
    });
    assert.equal(compared.status, 200);
    const chunks = parseNdjson(await compared.text());
    assert.equal(chunks.at(-1).type, "compare-summary", JSON.stringify(chunks.at(-1)));
    await t.service.telemetry.flush();
    const [comparison] = byName(receiver.spans, "compare");
    assert.equal(comparison.parentSpanId, "");
    const columns = receiver.spans.filter((span) => span.parentSpanId === comparison.spanId);
    assert.deepEqual(columns.map((span) => span.name), ["invoke_agent W", "invoke_agent W"]);
    assert.deepEqual(
      columns.map((span) => span.attributes["lass.run.id"]).sort(),
      chunks.filter((chunk) => chunk.type === "start").map((chunk) => chunk.runId).sort(),
    );

    const off = await t.call("/api/config", { method: "PUT", json: config });
    assert.equal(off.status, 200, await off.text());
    await t.service.telemetry.settled();
    assert.equal(t.service.telemetry.tracing, undefined);
    const sent = receiver.spans.length;
    const last = await chat(t, { messages: [user("please add 1 and 1")] });
    assert.equal(last.chunks.at(-1).type, "finish");
    await t.service.telemetry.flush();
    assert.equal(receiver.spans.length, sent, "no span after telemetry went off");
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("telemetry settings: the config wins over OTEL_* variables; endpoints get /v1/traces once", () => {
  const config = (telemetry?: Record<string, unknown>) =>
    ServiceConfigSchema.parse({ ...chatConfig(), ...(telemetry && { telemetry }) });
  const env = (values: Record<string, string>) => (name: string) => values[name];
  assert.equal(telemetrySettings(config(), env({})), undefined, "off without config or env");
  assert.deepEqual(
    telemetrySettings(
      config({
        otlp: { endpoint: "env:OTLP_URL", headers: { Authorization: "Basic ${KEY}" } },
        serviceName: "mine",
      }),
      env({ OTLP_URL: "https://cloud.langfuse.com/api/public/otel", KEY: "abc" }),
    ),
    {
      url: "https://cloud.langfuse.com/api/public/otel/v1/traces",
      headers: { Authorization: "Basic abc" },
      protocol: "http/protobuf",
      serviceName: "mine",
      source: "config",
    },
  );
  const fromEnv = env({
    OTEL_EXPORTER_OTLP_ENDPOINT: "http://localhost:4318/",
    OTEL_EXPORTER_OTLP_HEADERS: "api_key=a%3Db, x-other = 2 ,broken",
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  });
  assert.deepEqual(telemetrySettings(config(), fromEnv), {
    url: "http://localhost:4318/v1/traces",
    headers: { api_key: "a=b", "x-other": "2" },
    protocol: "http/json",
    serviceName: "lass",
    source: "env",
  });
  assert.equal(
    telemetrySettings(config({ otlp: { endpoint: "http://collector:4318" } }), fromEnv)?.url,
    "http://collector:4318/v1/traces",
    "the config wins",
  );
  assert.equal(
    telemetrySettings(
      config(),
      env({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://h:6006/custom/path" }),
    )?.url,
    "http://h:6006/custom/path",
    "the signal's own variable is the whole URL",
  );
  assert.equal(tracesUrl("http://h:6006/v1/traces"), "http://h:6006/v1/traces");
  assert.equal(
    telemetrySettings(
      config(),
      env({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://h:4318", OTEL_SDK_DISABLED: "true" }),
    ),
    undefined,
  );
  assert.equal(
    ServiceConfigSchema.safeParse({
      telemetry: { otlp: { endpoint: "ftp://x", protocol: "grpc" } },
    })
      .error?.issues.map((issue) => issue.path.join(".")).sort().join(","),
    "telemetry.otlp.endpoint,telemetry.otlp.protocol",
  );
});

Deno.test("the redacted config export hides literal telemetry headers and URL credentials, keeps references", () => {
  const redacted = redactConfig({
    telemetry: {
      otlp: {
        endpoint: "https://user:pass@collector.example/otel",
        headers: { authorization: "Bearer literal-secret", "x-key": "env:OTLP_KEY" },
      },
    },
  }) as { telemetry: { otlp: { endpoint: string; headers: Record<string, string> } } };
  assert.equal(redacted.telemetry.otlp.endpoint, "https://<redacted>@collector.example/otel");
  assert.deepEqual(redacted.telemetry.otlp.headers, {
    authorization: "<redacted>",
    "x-key": "env:OTLP_KEY",
  });
});

Deno.test("a receiver that refuses the spans is reported as a telemetry.error event", async () => {
  const refusing = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      await req.body?.cancel();
      return new Response("no", { status: 400 });
    },
  );
  const t = await startService({
    config: {
      ...chatConfig(),
      telemetry: { otlp: { endpoint: `http://127.0.0.1:${refusing.addr.port}` } },
    },
  });
  try {
    const { chunks } = await chat(t, { messages: [user("please add 2 and 3")] });
    assert.equal(chunks.at(-1).type, "finish", "the turn does not notice");
    await t.service.telemetry.flush();
    await eventSeen(t, (event) => event.type === "telemetry.error", "telemetry.error");
  } finally {
    await t.close();
    await refusing.shutdown();
  }
});
