/**
 * The web UI without a browser: the build, the shell and its token-carrying asset URLs, the
 * assets route, the token page, and the wire types shared by server and islands.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { buildUi } from "../../scripts/build_ui.ts";
import { UI_OUT, uiIsStale } from "../../scripts/ui_stale.ts";
import type { ChatBodySchema } from "../../core/chat/request.ts";
import type {
  ApprovalResponseSchema,
  ElicitationResponseSchema,
  SamplingResponseSchema,
} from "../../core/interaction_answers.ts";
import type { Session } from "../../core/sessions.ts";
import type { SessionInputSchema } from "../../core/session_input.ts";
import type { ChatRequest } from "../../wire/chat.ts";
import type { ApprovalAnswer, ElicitationAnswer, SamplingAnswer } from "../../wire/interactions.ts";
import type { SessionInput, SessionRecord } from "../../wire/sessions.ts";
import { type Json, startService, TOKEN } from "../_helpers.ts";

/** The first SHA-256 CSP source of a text. */
async function cspHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`;
}

Deno.test("the UI build bundles the islands and static files, with no server code", async () => {
  const { manifest } = await buildUi({ ifStale: true });
  assert.equal(await uiIsStale(), false);
  assert.equal(manifest.entry, "app.js");
  assert.deepEqual(manifest.styles, ["app.css"]);
  for (const name of [manifest.entry, ...manifest.preload]) assert.ok(manifest.files[name], name);
  for (const [name, file] of Object.entries(manifest.files)) {
    assert.match(file.hash, /^[0-9a-f]{16}$/);
    assert.ok(file.gzipBytes > 0 && file.gzipBytes <= file.bytes + 40, name);
    if (!name.endsWith(".js")) continue;
    const code = await readFile(new URL(name, UI_OUT), "utf8");
    // Type-only imports of wire/ (and through it core/) leave nothing behind.
    assert.doesNotMatch(code, /LassError|node:|Deno\./, name);
    // The chat page carries no schema library (the A2UI renderer, loaded later, brings zod 3).
    const upFront = name === manifest.entry || manifest.preload.includes(name);
    if (upFront) assert.doesNotMatch(code, /zod/, name);
  }
});

Deno.test("the shell carries the token on its asset URLs; assets need the token", async () => {
  const { manifest } = await buildUi({ ifStale: true });
  const t = await startService();
  try {
    const page = await t.call(`/chat/some-id?token=${TOKEN}`, { token: null });
    assert.equal(page.status, 200);
    const html = await page.text();
    const csp = page.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    assert.match(
      html,
      new RegExp(`<script type="importmap" nonce="${nonce.replace(/\+/g, "\\+")}">`),
    );
    assert.ok(html.includes(`<script type="module" src="/assets/app.js?token=${TOKEN}"></script>`));
    assert.ok(html.includes(`<link rel="stylesheet" href="/assets/app.css?token=${TOKEN}">`));
    const importMap = JSON.parse(/<script type="importmap"[^>]*>(.*?)<\/script>/s.exec(html)![1]);
    for (const name of Object.keys(manifest.files).filter((n) => n.endsWith(".js"))) {
      assert.equal(importMap.imports[`/assets/${name}`], `/assets/${name}?token=${TOKEN}`);
    }
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /connect-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(page.headers.get("cache-control"), "no-store");
    assert.equal(page.headers.get("referrer-policy"), "no-referrer");

    const noToken = await t.call("/assets/app.js", { token: null });
    assert.equal(noToken.status, 401);
    assert.equal((await noToken.json()).error.code, "unauthorized");

    const script = await t.call("/assets/app.js");
    assert.equal(script.status, 200);
    assert.equal(script.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.equal(script.headers.get("cache-control"), "private, no-cache");
    const etag = script.headers.get("etag")!;
    assert.equal(etag, `"${manifest.files["app.js"].hash}"`);
    assert.equal((await script.arrayBuffer()).byteLength, manifest.files["app.js"].bytes);
    const again = await t.call("/assets/app.js", { headers: { "if-none-match": etag } });
    assert.equal(again.status, 304);
    assert.equal(again.body, null);
    const css = await t.call("/assets/app.css");
    assert.equal(css.headers.get("content-type"), "text/css; charset=utf-8");
    await css.body?.cancel();

    for (const name of ["manifest.json", "nope.js", "..%2Fdeno.json", "%2E%2E%2Fmain.ts"]) {
      const missing = await t.call(`/assets/${name}`);
      assert.equal(missing.status, 404, name);
      assert.equal((await missing.json()).error.code, "not-found");
    }
  } finally {
    await t.close();
  }
});

Deno.test("a browser without a valid token gets the token page; scripts keep the JSON 401", async () => {
  const t = await startService();
  try {
    const accept = "text/html,application/xhtml+xml,*/*;q=0.8";
    for (const path of ["/", "/chat/x", "/settings/models", "/events"]) {
      // 200: its script reopens the page with the tab's kept token (no failed load in the console).
      const response = await t.call(path, { token: null, headers: { accept } });
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get("content-type"), "text/html; charset=utf-8");
      assert.equal(response.headers.get("x-frame-options"), "DENY");
      const html = await response.text();
      assert.match(html, /Open the URL that Lass printed in the terminal/);
      assert.match(html, /This page needs the service token/);
      // The CSP allows exactly the page's inline script and style, by hash.
      const csp = response.headers.get("content-security-policy")!;
      const script = /<script>(.*?)<\/script>/s.exec(html)![1];
      const style = /<style>(.*?)<\/style>/s.exec(html)![1];
      assert.match(
        csp,
        new RegExp(`script-src ${await cspHash(script)};`.replace(/[+/]/g, "\\$&")),
      );
      assert.match(csp, new RegExp(`style-src ${await cspHash(style)};`.replace(/[+/]/g, "\\$&")));
      assert.doesNotMatch(csp, /unsafe/);
    }
    const wrong = await t.call("/?token=nope", { token: null, headers: { accept } });
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /not the one Lass is using now/);
    const head = await t.call("/", { method: "HEAD", token: null, headers: { accept } });
    assert.equal(head.status, 200);
    assert.equal(head.body, null);
    // API paths, assets and unknown paths answer JSON even to a browser.
    for (const path of ["/api/bootstrap", "/assets/app.js", "/nothing"]) {
      const response = await t.call(path, { token: null, headers: { accept } });
      assert.equal(response.status, 401, path);
      assert.equal((await response.json() as Json).error.code, "unauthorized");
    }
  } finally {
    await t.close();
  }
});

/** `true` when A and B are mutually assignable. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

Deno.test("the wire types match what the server validates", () => {
  const approval: Same<ApprovalAnswer, z.output<typeof ApprovalResponseSchema>> = true;
  const elicitation: Same<ElicitationAnswer, z.output<typeof ElicitationResponseSchema>> = true;
  const sampling: Same<SamplingAnswer, z.output<typeof SamplingResponseSchema>> = true;
  // What the UI sends is accepted by the server's schemas.
  const chat: [ChatRequest] extends [z.input<typeof ChatBodySchema>] ? true : false = true;
  const session: [SessionInput] extends [z.input<typeof SessionInputSchema>] ? true : false = true;
  // What the server stores is what the UI reads, field by field (messages are stored as given).
  const record: Same<keyof SessionRecord, keyof Session> = true;
  assert.deepEqual(
    [approval, elicitation, sampling, chat, session, record],
    [true, true, true, true, true, true],
  );
});
