/**
 * The auth fetch's handover: concurrent 401s for one access token run one `auth()`. The SDK's
 * side (a 401 runs `auth()`, which refreshes, saves and retries once) is played by the test, so
 * each order of events is set by the test rather than by timing.
 */
import assert from "node:assert/strict";
import { createAuthFetch, RefreshCoalescer, TokenHandover } from "../../../core/mcp/oauth/fetch.ts";

const MCP = "http://127.0.0.1:1/mcp";
const TOKEN = "http://127.0.0.1:1/token";

/** A promise with its resolver outside. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => resolve = r);
  return { promise, resolve };
}

/** A resource and token endpoint in one fake, with gates the test opens, and the SDK's side. */
function setup(options: { refreshStatus?: number } = {}) {
  const store = { access: "AT1", refresh: "RT1" };
  const stats = { refreshes: 0, auths: 0, unauthorized: [] as string[] };
  const refreshSent = deferred();
  const refreshGate = deferred();
  const handover = new TokenHandover();
  /** 401s wait here for the test, by the access token they carried. */
  const held: (() => void)[] = [];
  let toHold = 0;
  const base = async (url: string | URL, init?: RequestInit) => {
    if (String(url) === TOKEN) {
      stats.refreshes++;
      refreshSent.resolve();
      await refreshGate.promise;
      const n = stats.refreshes + 1;
      return options.refreshStatus
        ? Response.json({ error: "invalid_grant" }, { status: options.refreshStatus })
        : Response.json({ access_token: `AT${n}`, refresh_token: `RT${n}` });
    }
    const token = new Headers(init?.headers).get("authorization")?.slice("Bearer ".length);
    if (token === store.access && token !== "AT1") return new Response("ok");
    if (toHold > 0) {
      toHold--;
      const release = deferred();
      held.push(release.resolve);
      await release.promise;
    }
    return new Response("expired", { status: 401 });
  };
  const fetch = createAuthFetch({
    currentToken: () => Promise.resolve(store.access),
    insufficientScope: () => {},
    refreshes: new RefreshCoalescer(),
    handover,
    base,
  });
  /** What the SDK does on a 401: refresh with the stored refresh token, save, end. */
  const auth = async () => {
    stats.auths++;
    const response = await fetch(TOKEN, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: store.refresh })
        .toString(),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error("refresh failed");
    }
    const tokens = await response.json();
    store.access = tokens.access_token;
    store.refresh = tokens.refresh_token;
    handover.ended();
  };
  /** One request as the SDK's transport sends it: a 401 runs `auth()` and retries once. */
  const call = async (text: string) => {
    const send = () =>
      fetch(MCP, {
        method: "POST",
        headers: { authorization: `Bearer ${store.access}` },
        body: text,
      });
    let response = await send();
    if (response.status === 401) {
      stats.unauthorized.push(text);
      await response.body?.cancel();
      await auth();
      response = await send();
    }
    return { status: response.status, text: await response.text() };
  };
  return {
    store,
    stats,
    call,
    refreshSent: refreshSent.promise,
    openRefresh: () => refreshGate.resolve(),
    /** How many `auth()` ends the fetch and the SDK's side reported. */
    ends: () => handover.ends,
    /** Holds the 401s of the next `count` requests until {@link releaseHeld}. */
    holdNext: (count: number) => toHold = count,
    held: () => held.length,
    releaseHeld: () => held.splice(0).forEach((release) => release()),
  };
}

/** Waits until `ready()` holds, checking after each turn of the event loop. */
async function until(ready: () => boolean, what: string) {
  for (let i = 0; i < 1_000; i++) {
    if (ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  assert.fail(`waited for ${what}`);
}

Deno.test("auth fetch handover: 401s that arrive while a refresh runs wait for it, and run no auth() of their own", async () => {
  const side = setup();
  const first = side.call("one");
  await side.refreshSent;
  side.holdNext(2);
  const later = [side.call("two"), side.call("three")];
  await until(() => side.held() === 2, "both later requests to be answered 401");
  side.releaseHeld();
  side.openRefresh();
  const results = await Promise.all([first, ...later]);
  assert.deepEqual(results, [
    { status: 200, text: "ok" },
    { status: 200, text: "ok" },
    { status: 200, text: "ok" },
  ]);
  assert.deepEqual(side.stats.unauthorized, ["one"], "only the first 401 went back to the SDK");
  assert.equal(side.stats.auths, 1);
  assert.equal(side.stats.refreshes, 1);
  assert.deepEqual(side.store, { access: "AT2", refresh: "RT2" });
});

Deno.test("auth fetch handover: a 401 that arrives after the refresh was saved is retried with the new token", async () => {
  const side = setup();
  side.holdNext(1);
  const late = side.call("late");
  await until(() => side.held() === 1, "the late request's 401");
  side.openRefresh();
  assert.deepEqual(await side.call("first"), { status: 200, text: "ok" });
  side.releaseHeld();
  assert.deepEqual(await late, { status: 200, text: "ok" });
  assert.equal(side.stats.refreshes, 1);
  assert.deepEqual(side.stats.unauthorized, ["first"]);
});

Deno.test("auth fetch handover: when the refresh is refused, the waiting 401s go back to the SDK", async () => {
  const side = setup({ refreshStatus: 400 });
  const first = side.call("one");
  await side.refreshSent;
  side.holdNext(1);
  const second = side.call("two");
  await until(() => side.held() === 1, "the second request's 401");
  side.releaseHeld();
  side.openRefresh();
  const outcomes = await Promise.allSettled([first, second]);
  assert.deepEqual(outcomes.map((o) => o.status), ["rejected", "rejected"]);
  // The SDK's side reports no end on a failure: the fetch did, on the refused token request.
  assert.ok(side.ends() >= 1, "the refused refresh ended the auth() the second 401 waited for");
  assert.deepEqual(side.stats.unauthorized.sort(), ["one", "two"], "each ran its own auth()");
  assert.deepEqual(side.store, { access: "AT1", refresh: "RT1" }, "nothing saved");
});
