/** UI component catalogs: the standard one, configured ones from a file, a URL and inline, broken ones. */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { nodeFileSystem } from "../../core/files_node.ts";
import { BASIC_CATALOG_ID, viewOf } from "../../core/genui/catalog.ts";
import { loadCatalogRecord, loadStandardCatalog } from "../../core/genui/load.ts";
import { standardCatalog } from "../../core/genui/standard_catalog.ts";
import { type Json, post, readJsonResponse, startService } from "../_helpers.ts";
import { bannerCatalog } from "../_genui.ts";

/** Serves JSON routes on a loopback port; `/slow` never answers in time, `/big` is too large. */
function catalogServer(routes: Record<string, unknown>) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/slow") {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return Response.json(bannerCatalog());
    }
    if (path === "/big") return new Response("x".repeat(4096));
    if (!(path in routes)) return new Response("no", { status: 404 });
    const body = routes[path];
    return typeof body === "string" ? new Response(body) : Response.json(body);
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("GET /api/catalogs lists the standard catalog from @a2ui/web_core with all 18 components", async () => {
  const t = await startService();
  try {
    const { status, body } = await readJsonResponse(await t.call("/api/catalogs"));
    assert.equal(status, 200);
    const [standard] = body.catalogs;
    assert.equal(standard.id, "standard");
    assert.equal(standard.catalogId, BASIC_CATALOG_ID);
    assert.equal(standard.source, "standard");
    assert.deepEqual(standard.errors, []);
    assert.deepEqual(standard.components.map((c: Json) => c.name).sort(), [
      "AudioPlayer",
      "Button",
      "Card",
      "CheckBox",
      "ChoicePicker",
      "Column",
      "DateTimeInput",
      "Divider",
      "Icon",
      "Image",
      "List",
      "Modal",
      "Row",
      "Slider",
      "Tabs",
      "Text",
      "TextField",
      "Video",
    ]);
    const text = standard.components.find((c: Json) => c.name === "Text");
    assert.deepEqual(text.schema.required, ["text"]);
    assert.deepEqual(text.schema.properties.variant.enum, [
      "h1",
      "h2",
      "h3",
      "h4",
      "h5",
      "caption",
      "body",
    ]);
    assert.equal(
      text.schema.properties.text.$ref,
      "https://a2ui.org/specification/v0_9/common_types.json#/$defs/DynamicString",
    );
    assert.ok(standard.functions.includes("formatString"));
    // Bootstrap lists configured catalogs only; there are none here.
    const boot = await t.call("/api/bootstrap").then((r) => r.json());
    assert.deepEqual(boot.catalogs, []);
  } finally {
    await t.close();
  }
});

Deno.test("schema/standard_catalog.json is the standard catalog as @a2ui/web_core defines it (run `deno task schema`)", async () => {
  const committed = JSON.parse(
    await readFile(new URL("../../schema/standard_catalog.json", import.meta.url), "utf8"),
  );
  assert.deepEqual(
    committed,
    viewOf(await loadStandardCatalog()),
    "schema/standard_catalog.json differs from @a2ui/web_core's basic catalog: run `deno task schema`",
  );
  // The listed catalog is that view; its validators (from web_core) cover exactly its components.
  assert.deepEqual(viewOf(standardCatalog), committed);
  assert.deepEqual(
    [...(await standardCatalog.validators()).keys()],
    committed.components.map((component: Json) => component.name),
  );
});

Deno.test("configured catalogs load from a file, a URL and inline; broken ones report errors alone", async () => {
  const remote = catalogServer({
    "/banner.json": bannerCatalog("https://example.com/remote.json"),
    "/not-json": "{nope",
  });
  const t = await startService({
    config: {
      catalogs: [
        { id: "file", path: "catalogs/banner.json" },
        { id: "remote", url: `${remote.url}/banner.json`, name: "Remote banners" },
        { id: "inline", catalog: bannerCatalog("https://example.com/inline.json") },
        { id: "missing", path: "catalogs/none.json" },
        { id: "gone", url: `${remote.url}/missing.json` },
        { id: "garbled", url: `${remote.url}/not-json` },
        { id: "anonymous", catalog: { components: {} } },
        {
          id: "partly",
          catalog: {
            catalogId: "https://example.com/partly.json",
            components: {
              Good: { properties: { component: { const: "Good" }, text: { type: "string" } } },
              Wrong: { properties: { component: { const: "Other" } } },
              External: {
                properties: { x: { $ref: "https://elsewhere.example/types.json#/$defs/X" } },
              },
              Dangling: { properties: { x: { $ref: "#/$defs/Missing" } } },
            },
          },
        },
      ],
    },
  });
  try {
    await Deno.mkdir(join(t.dir, "catalogs"));
    await writeFile(join(t.dir, "catalogs/banner.json"), JSON.stringify(bannerCatalog()));
    const { body } = await readJsonResponse(await t.call("/api/catalogs?reload=1"));
    const byId = Object.fromEntries(body.catalogs.map((c: Json) => [c.id, c]));
    assert.deepEqual(Object.keys(byId), [
      "standard",
      "file",
      "remote",
      "inline",
      "missing",
      "gone",
      "garbled",
      "anonymous",
      "partly",
    ]);
    for (const id of ["file", "remote", "inline"]) {
      assert.deepEqual(byId[id].errors, [], id);
      assert.deepEqual(byId[id].components.map((c: Json) => c.name), ["Banner", "Badge"]);
    }
    assert.equal(byId.file.source, "path");
    assert.equal(byId.file.location, join(t.dir, "catalogs/banner.json"));
    assert.equal(byId.file.name, "Banners");
    assert.equal(byId.remote.source, "url");
    assert.equal(byId.remote.name, "Remote banners");
    assert.equal(byId.remote.catalogId, "https://example.com/remote.json");
    assert.equal(byId.inline.source, "inline");
    const banner = byId.inline.components[0];
    assert.equal(banner.description, "A coloured strip with a message. Use it for notices.");
    assert.deepEqual(banner.schema.required, ["message"]);
    assert.match(byId.missing.errors[0], /catalogs\/none\.json does not exist/);
    assert.match(byId.gone.errors[0], /answered HTTP 404/);
    assert.match(byId.garbled.errors[0], /is not valid JSON/);
    assert.match(byId.anonymous.errors[0], /has no catalogId/);
    for (const id of ["missing", "gone", "garbled", "anonymous"]) {
      assert.deepEqual(byId[id].components, [], id);
    }
    assert.deepEqual(byId.partly.components.map((c: Json) => c.name), ["Good"]);
    assert.equal(byId.partly.errors.length, 3);
    assert.match(byId.partly.errors.join("\n"), /Wrong: its "component" property is the constant/);
    assert.match(byId.partly.errors.join("\n"), /External: the \$ref .* is neither local/);
    assert.match(byId.partly.errors.join("\n"), /Dangling: the \$ref #\/\$defs\/Missing/);

    const boot = await t.call("/api/bootstrap").then((r) => r.json());
    assert.deepEqual(boot.catalogs.map((c: Json) => [c.id, c.errors.length]), [
      ["file", 0],
      ["remote", 0],
      ["inline", 0],
      ["missing", 1],
      ["gone", 1],
      ["garbled", 1],
      ["anonymous", 1],
      ["partly", 3],
    ]);
    assert.equal(boot.catalogs[1].name, "Remote banners");
  } finally {
    await t.close();
    await remote.close();
  }
});

Deno.test("bootstrap follows config changes of the catalogs (its cache is rebuilt)", async () => {
  const t = await startService({
    config: { catalogs: [{ id: "a", catalog: bannerCatalog("https://example.com/a.json") }] },
  });
  try {
    const first = await t.call("/api/bootstrap").then((r) => r.json());
    assert.deepEqual(first.catalogs, [{ id: "a", name: "Banners", errors: [] }]);
    const again = await t.call("/api/bootstrap").then((r) => r.json());
    assert.deepEqual(again.catalogs, first.catalogs);
    const config = structuredClone(t.service.config.stored) as Json;
    config.catalogs = [
      { id: "a", catalog: bannerCatalog("https://example.com/a.json"), name: "Renamed" },
      { id: "b", catalog: { catalogId: 5 } },
    ];
    const put = await t.call("/api/config", { method: "PUT", json: config });
    assert.equal(put.status, 200, await put.text());
    const after = await t.call("/api/bootstrap").then((r) => r.json());
    assert.deepEqual(after.catalogs, [
      { id: "a", name: "Renamed", errors: [] },
      {
        id: "b",
        name: "b",
        errors: ["the catalog has no catalogId (a URI that names it)"],
      },
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/catalogs/preview loads a draft record without saving it", async () => {
  const remote = catalogServer({ "/c.json": bannerCatalog() });
  const t = await startService();
  try {
    const inline = await post(t, "/api/catalogs/preview", {
      catalog: { catalog: bannerCatalog(), name: "Draft" },
    });
    assert.equal(inline.status, 200);
    assert.equal(inline.body.id, "draft");
    assert.equal(inline.body.name, "Draft");
    assert.deepEqual(inline.body.components.map((c: Json) => c.name), ["Banner", "Badge"]);
    const url = await post(t, "/api/catalogs/preview", {
      catalog: { id: "web", url: `${remote.url}/c.json` },
    });
    assert.deepEqual([url.body.id, url.body.source, url.body.errors], ["web", "url", []]);
    const broken = await post(t, "/api/catalogs/preview", { catalog: { path: "nowhere.json" } });
    assert.equal(broken.status, 200);
    assert.match(broken.body.errors[0], /does not exist/);
    const invalid = await post(t, "/api/catalogs/preview", {
      catalog: { path: "a.json", url: "https://example.com/b.json" },
    });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.error.details[0].path, "catalog.path");
    assert.deepEqual(t.service.config.config.catalogs, []);
  } finally {
    await t.close();
    await remote.close();
  }
});

Deno.test("a catalog URL has a deadline and a size cap", async () => {
  const remote = catalogServer({});
  try {
    const deps = {
      fs: nodeFileSystem,
      base: { baseDir: "/", home: "/" },
      env: () => undefined,
      timeoutMs: 200,
      maxBytes: 1024,
    };
    const slow = await loadCatalogRecord({ id: "slow", url: `${remote.url}/slow` }, deps);
    assert.match(slow.errors[0], /took longer than 200 ms/);
    const big = await loadCatalogRecord({ id: "big", url: `${remote.url}/big` }, deps);
    assert.match(big.errors[0], /is larger than 1024 bytes/);
  } finally {
    await remote.close();
  }
});

Deno.test("a configured catalog may not take the standard catalog's id", async () => {
  const t = await startService();
  try {
    const config = structuredClone(t.service.config.stored) as Json;
    config.catalogs = [{ id: "standard", catalog: bannerCatalog() }];
    const { status, body } = await readJsonResponse(
      await t.call("/api/config", { method: "PUT", json: config }),
    );
    assert.equal(status, 400);
    assert.equal(body.error.details[0].path, "catalogs.0.id");
  } finally {
    await t.close();
  }
});
