import assert from "node:assert/strict";
import { encodeLine, ndjsonResponse } from "../routes/ndjson.ts";

Deno.test("encodeLine writes one line per value, escaping newlines inside strings", () => {
  const text = new TextDecoder().decode(encodeLine({ text: "a\nb\u2028c", n: 1 }));
  assert.equal(text, '{"text":"a\\nb\u2028c","n":1}\n');
  assert.equal(text.split("\n").length, 2);
});

Deno.test("ndjsonResponse streams each value as its own line with the NDJSON content type", async () => {
  const values = [{ type: "start" }, { type: "text", text: "hi" }, { type: "finish" }];
  const response = ndjsonResponse(ReadableStream.from(values));
  assert.equal(response.headers.get("content-type"), "application/x-ndjson; charset=utf-8");
  const reader = response.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  assert.equal(first, '{"type":"start"}\n', "the first value arrives as soon as it is produced");
  let rest = "";
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    rest += new TextDecoder().decode(r.value);
  }
  assert.deepEqual(rest.trim().split("\n").map((line) => JSON.parse(line)), values.slice(1));
});

Deno.test("ndjsonResponse cancels its source when the client goes away", async () => {
  let cancelled = false;
  const source = new ReadableStream({
    pull: (controller) => controller.enqueue({ tick: 1 }),
    cancel: () => {
      cancelled = true;
    },
  });
  const response = ndjsonResponse(source);
  const reader = response.body!.getReader();
  await reader.read();
  await reader.cancel();
  assert.equal(cancelled, true);
});
