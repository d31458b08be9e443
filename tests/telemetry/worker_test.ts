/**
 * Where telemetry encodes its spans (issue 29): in the export worker, off the event loop that
 * serves turns, or in the service's own thread when no worker can start; the spans arrive the
 * same either way.
 */
import assert from "node:assert/strict";
import { createTracing, exportedInThread } from "../../core/telemetry/otel.ts";
import { startOtlpReceiver } from "../_otlp.ts";

Deno.test("spans are encoded in the export worker; a worker that cannot start leaves them to this thread", async () => {
  const receiver = startOtlpReceiver();
  const settings = {
    url: `${receiver.endpoint}/v1/traces`,
    headers: {},
    protocol: "http/protobuf" as const,
    serviceName: "worker-test",
    source: "config" as const,
  };
  const errors: string[] = [];
  try {
    assert.equal(exportedInThread(), false, "nothing was exported in this thread yet");
    for (
      const workerUrl of [
        undefined,
        "data:text/javascript,throw new Error('this export worker cannot start (on purpose)')",
      ]
    ) {
      const tracing = createTracing(settings, (message) => errors.push(message), { workerUrl });
      const root = tracing.startSpan("root", {
        attributes: { "lass.test": workerUrl ?? "worker" },
      });
      root.child("child", { kind: "client" }).end({ type: "tool_error", message: "no" });
      root.end();
      await tracing.flush();
      await tracing.shutdown();
      const trace = receiver.spans.filter((span) => span.traceId === root.traceId);
      assert.deepEqual(trace.map((span) => span.name).sort(), ["child", "root"]);
      const child = trace.find((span) => span.name === "child")!;
      assert.equal(child.parentSpanId, trace.find((span) => span.name === "root")!.spanId);
      assert.deepEqual([child.kind, child.status.code, child.attributes["error.type"]], [
        3,
        2,
        "tool_error",
      ]);
      assert.equal(exportedInThread(), workerUrl !== undefined, "where the spans were encoded");
    }
    assert.deepEqual(errors, []);
  } finally {
    await receiver.close();
  }
});
