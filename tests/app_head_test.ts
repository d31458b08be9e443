import assert from "node:assert/strict";
import { serveOverHttp, startService, TOKEN } from "./_helpers.ts";

const session = {
  workspaceId: "playground",
  messages: [{ role: "user", content: "Plan a trip to Lisbon" }],
};

/** The headers that depend on the moment or the connection, left out of the comparison. */
function stableHeaders(response: Response): Record<string, string> {
  const headers = Object.fromEntries(response.headers);
  delete headers.date;
  return headers;
}

Deno.test("HEAD answers the GET's headers over HTTP, content-length included", async () => {
  const t = await startService();
  const server = serveOverHttp(t);
  try {
    const put = await t.call("/api/sessions/lisbon", { method: "PUT", json: session });
    assert.equal(put.status, 200);
    await put.body?.cancel();
    for (const path of ["/api/sessions", "/api/bootstrap", "/api/sessions/lisbon", "/nope"]) {
      const init = { headers: { "x-service-token": TOKEN } };
      const get = await fetch(`${server.url}${path}`, init);
      const body = new Uint8Array(await get.arrayBuffer());
      const head = await fetch(`${server.url}${path}`, { ...init, method: "HEAD" });
      assert.equal(await head.text(), "", `HEAD ${path} has no body`);
      assert.equal(head.status, get.status, `HEAD ${path} has the GET's status`);
      assert.equal(get.headers.get("content-length"), String(body.byteLength));
      assert.deepEqual(
        stableHeaders(head),
        stableHeaders(get),
        `HEAD ${path} has the GET's headers`,
      );
    }
  } finally {
    await server.close();
    await t.close();
  }
});

Deno.test("HEAD of a streaming GET claims no content-length, like the GET", async () => {
  const t = await startService();
  const server = serveOverHttp(t);
  try {
    const init = { headers: { "x-service-token": TOKEN } };
    const get = await fetch(`${server.url}/api/events`, init);
    await get.body?.cancel();
    const head = await fetch(`${server.url}/api/events`, { ...init, method: "HEAD" });
    assert.equal(await head.text(), "");
    assert.equal(head.status, 200);
    assert.equal(get.headers.get("content-length"), null);
    assert.equal(head.headers.get("content-length"), null, "no length claimed for a stream");
    assert.equal(head.headers.get("content-type"), get.headers.get("content-type"));
    assert.equal(head.headers.get("cache-control"), "no-store");
  } finally {
    await server.close();
    await t.close();
  }
});

Deno.test("HEAD in process answers the content-length of the GET's body", async () => {
  const t = await startService();
  try {
    const get = await t.call("/api/sessions");
    const length = (await get.arrayBuffer()).byteLength;
    const head = await t.call("/api/sessions", { method: "HEAD" });
    assert.equal(head.body, null);
    assert.equal(head.headers.get("content-length"), String(length));
    assert.equal(head.headers.get("x-content-type-options"), "nosniff");
  } finally {
    await t.close();
  }
});
