/** Checking and expanding the render tool's compact input: every rule failing and passing, repairs on and off. */
import assert from "node:assert/strict";
import { BASIC_CATALOG_ID } from "../../core/genui/catalog.ts";
import { expandSurface } from "../../core/genui/surface.ts";
import { MAX_DEPTH } from "../../core/genui/_tree.ts";
import { SurfaceIds } from "../../core/genui/surface_ids.ts";
import type { UiOffer } from "../../core/genui/offer.ts";
import { type Json, post, startService } from "../_helpers.ts";
import { assertRenderable, standardOffer } from "../_genui.ts";

const text = (id: string, value = id) => ({ id, component: "Text", text: value });

/** The codes of the problems left unrepaired, and of the repaired ones. */
function codes(result: { problems: { code: string; repaired?: true }[] }) {
  return {
    open: result.problems.filter((p) => !p.repaired).map((p) => p.code),
    repaired: result.problems.filter((p) => p.repaired).map((p) => p.code),
  };
}

function expand(input: unknown, overrides: Partial<UiOffer> = {}) {
  return expandSurface(input, standardOffer(overrides), new SurfaceIds("t"));
}

Deno.test("a valid surface expands into createSurface, updateComponents and updateDataModel", async () => {
  const input = {
    surfaceId: "signup",
    title: "Sign up",
    components: [
      { id: "email", component: "TextField", label: "Email", value: { path: "/form/email" } },
      { id: "root", component: "Column", children: ["heading", "email"] },
      { id: "heading", component: "Text", text: "Hello", variant: "h2" },
    ],
    data: { form: { email: "" } },
  };
  const result = await expand(input, { theme: { primaryColor: "#1a73e8" } });
  assert.equal(result.ok, true, JSON.stringify(result.problems));
  assert.deepEqual(result.problems, []);
  assert.equal(result.surfaceId, "signup");
  assert.equal(result.title, "Sign up");
  assert.deepEqual(result.messages, [
    {
      version: "v0.9",
      createSurface: {
        surfaceId: "signup",
        catalogId: BASIC_CATALOG_ID,
        theme: { primaryColor: "#1a73e8" },
      },
    },
    {
      version: "v0.9",
      updateComponents: {
        surfaceId: "signup",
        // Root first, parents before children.
        components: [input.components[1], input.components[2], input.components[0]],
      },
    },
    {
      version: "v0.9",
      updateDataModel: { surfaceId: "signup", path: "/", value: { form: { email: "" } } },
    },
  ]);
  await assertRenderable(result.messages);
});

Deno.test("ids must be unique", async () => {
  const bad = await expand({
    components: [{ id: "root", component: "Column", children: ["a"] }, text("a"), text("a")],
  });
  assert.equal(bad.ok, false);
  assert.deepEqual(bad.messages, []);
  assert.deepEqual(bad.problems[0], {
    code: "duplicate-id",
    path: "/components/2/id",
    message: '"a" is already the id of /components/1; ids must be unique',
  });
  const good = await expand({
    components: [{ id: "root", component: "Column", children: ["a", "b"] }, text("a"), text("b")],
  });
  assert.equal(good.ok, true);
});

Deno.test("exactly one root: repaired when missing (one top or several), refused without repair", async () => {
  const lone = { components: [{ id: "main", component: "Card", child: "t" }, text("t")] };
  const renamed = await expand(lone);
  assert.equal(renamed.ok, true);
  assert.deepEqual(codes(renamed), { open: [], repaired: ["missing-root"] });
  assert.equal(renamed.problems[0].path, "/components/0/id");
  const [, update] = renamed.messages as Json[];
  assert.deepEqual(update.updateComponents.components[0], {
    id: "root",
    component: "Card",
    child: "t",
  });
  await assertRenderable(renamed.messages);

  const several = await expand({ components: [text("a"), text("b")] });
  assert.equal(several.ok, true);
  const [, wrapped] = several.messages as Json[];
  assert.deepEqual(wrapped.updateComponents.components[0], {
    id: "root",
    component: "Column",
    children: ["a", "b"],
  });
  await assertRenderable(several.messages);

  const strict = await expand(lone, { repair: false });
  assert.equal(strict.ok, false);
  assert.deepEqual(codes(strict), { open: ["missing-root"], repaired: [] });

  // Without Column in the offer, several top-level components cannot be wrapped.
  const offer = standardOffer();
  offer.catalogs[0] = { ...offer.catalogs[0], components: ["Text"] };
  const noColumn = await expandSurface({ components: [text("a"), text("b")] }, offer);
  assert.deepEqual(codes(noColumn).open, ["missing-root"]);
});

Deno.test("every child reference must resolve: lists, single children, tabs and templates", async () => {
  const bad = await expand({
    components: [
      { id: "root", component: "Column", children: ["card", "ghost"] },
      { id: "card", component: "Card", child: "nobody" },
      { id: "tabs", component: "Tabs", tabs: [{ title: "One", child: "missing" }] },
      { id: "list", component: "List", children: { componentId: "tpl", path: "/items" } },
    ],
  });
  assert.equal(bad.ok, false);
  assert.deepEqual(
    bad.problems.filter((p) => p.code === "dangling-reference").map((p) => p.path),
    [
      "/components/0/children/1",
      "/components/1/child",
      "/components/2/tabs/0/child",
      "/components/3/children/componentId",
    ],
  );
  const good = await expand({
    components: [
      { id: "root", component: "Column", children: ["card", "tabs", "list"] },
      { id: "card", component: "Card", child: "a" },
      text("a"),
      { id: "tabs", component: "Tabs", tabs: [{ title: "One", child: "b" }] },
      text("b"),
      { id: "list", component: "List", children: { componentId: "tpl", path: "/items" } },
      { id: "tpl", component: "Text", text: { path: "name" } },
    ],
    data: { items: [{ name: "x" }, { name: "y" }] },
  });
  assert.equal(good.ok, true, JSON.stringify(good.problems));
  await assertRenderable(good.messages);
});

Deno.test("references must not form a cycle", async () => {
  const cycle = await expand({
    components: [
      { id: "root", component: "Column", children: ["a"] },
      { id: "a", component: "Card", child: "b" },
      { id: "b", component: "Card", child: "a" },
    ],
  });
  assert.equal(cycle.ok, false);
  const found = cycle.problems.find((p) => p.code === "cycle")!;
  assert.equal(found.path, "/components/2/child");
  assert.match(found.message, /a → b → a/);
  const self = await expand({ components: [{ id: "root", component: "Card", child: "root" }] });
  assert.deepEqual(codes(self).open, ["cycle"]);
  const good = await expand({
    components: [
      { id: "root", component: "Column", children: ["a"] },
      { id: "a", component: "Card", child: "b" },
      text("b"),
    ],
  });
  assert.equal(good.ok, true);
});

Deno.test(`the tree may be at most ${MAX_DEPTH} levels deep`, async () => {
  const chain = (levels: number) => {
    const components: Json[] = [];
    for (let i = 0; i < levels - 1; i++) {
      components.push({ id: i === 0 ? "root" : `c${i}`, component: "Card", child: `c${i + 1}` });
    }
    components.push(text(`c${levels - 1}`));
    return { components };
  };
  const deep = await expand(chain(MAX_DEPTH + 1));
  assert.deepEqual(codes(deep).open, ["too-deep"]);
  assert.equal(deep.problems[0].path, `/components/${MAX_DEPTH - 1}/child`);
  const fits = await expand(chain(MAX_DEPTH));
  assert.equal(fits.ok, true);
});

Deno.test("only known components: unknown ones and ones of another catalog are refused", async () => {
  const bad = await expand({ components: [{ id: "root", component: "Carousel" }] });
  assert.equal(bad.ok, false);
  assert.equal(bad.problems[0].code, "unknown-component");
  assert.equal(bad.problems[0].path, "/components/0/component");
  assert.match(bad.problems[0].message, /Carousel is not a component of .*; use one of Text, /);
  const good = await expand({ components: [text("root")] });
  assert.equal(good.ok, true);
});

Deno.test("required properties must be present", async () => {
  const bad = await expand({
    components: [
      { id: "root", component: "Column", children: ["t", "s"] },
      { id: "t", component: "Text" },
      { id: "s", component: "Slider", value: 3 },
    ],
  });
  assert.deepEqual(bad.problems.map((p) => [p.code, p.path]), [
    ["missing-property", "/components/1/text"],
    ["missing-property", "/components/2/max"],
  ]);
  const good = await expand({
    components: [
      { id: "root", component: "Column", children: ["t", "s"] },
      { id: "t", component: "Text", text: "ok" },
      { id: "s", component: "Slider", value: 3, max: 10 },
    ],
  });
  assert.equal(good.ok, true);
});

Deno.test("enum values must be valid; a wrong case or separator is repaired", async () => {
  const wrong = { components: [{ id: "root", component: "Text", text: "x", variant: "h9" }] };
  const bad = await expand(wrong);
  assert.deepEqual(bad.problems, [{
    code: "invalid-enum",
    path: "/components/0/variant",
    message: '"h9" is not one of "h1", "h2", "h3", "h4", "h5", "caption", "body"',
  }]);
  const cased = {
    components: [
      { id: "root", component: "Row", children: ["t"], justify: "space-between" },
      { id: "t", component: "Text", text: "x", variant: "H2" },
    ],
  };
  const repaired = await expand(cased);
  assert.equal(repaired.ok, true);
  assert.deepEqual(repaired.problems.map((p) => [p.path, p.message]), [
    ["/components/0/justify", '"space-between" was changed to "spaceBetween"'],
    ["/components/1/variant", '"H2" was changed to "h2"'],
  ]);
  const [, update] = repaired.messages as Json[];
  assert.equal(update.updateComponents.components[1].variant, "h2");
  const strict = await expand(cased, { repair: false });
  assert.deepEqual(codes(strict), { open: ["invalid-enum", "invalid-enum"], repaired: [] });
  const good = await expand({
    components: [{ id: "root", component: "Text", text: "x", variant: "h2" }],
  });
  assert.equal(good.ok, true);
});

Deno.test("values of the wrong type are refused with what is expected", async () => {
  const bad = await expand({
    components: [{ id: "root", component: "Text", text: 5 }],
  });
  assert.deepEqual(bad.problems.map((p) => [p.code, p.path]), [
    ["invalid-value", "/components/0/text"],
  ]);
  assert.match(bad.problems[0].message, /must be a string, or an object such as \{"path"/);
});

Deno.test("unknown properties are dropped with repair and refused without", async () => {
  const input = {
    components: [{ id: "root", component: "Text", text: "x", color: "red" }],
    theme: "dark",
  };
  const repaired = await expand(input);
  assert.equal(repaired.ok, true);
  assert.deepEqual(repaired.problems.map((p) => [p.code, p.path, p.repaired]), [
    ["unknown-property", "/theme", true],
    ["unknown-property", "/components/0/color", true],
  ]);
  const [, update] = repaired.messages as Json[];
  assert.deepEqual(update.updateComponents.components, [{
    id: "root",
    component: "Text",
    text: "x",
  }]);
  const strict = await expand(input, { repair: false });
  assert.deepEqual(codes(strict), { open: ["unknown-property", "unknown-property"], repaired: [] });
});

Deno.test("repairs of shapes: a bare list, v0.8 wrappers, missing ids, unreachable components", async () => {
  const bare = [
    { id: "root", component: { Column: { children: { explicitList: ["t"] } } } },
    { component: "Text", text: "orphan" },
    text("t"),
  ];
  const repaired = await expand(bare);
  assert.equal(repaired.ok, true, JSON.stringify(repaired.problems));
  assert.deepEqual(codes(repaired).repaired, [
    "components-wrapped",
    "component-unwrapped",
    "missing-id",
    "children-unwrapped",
    "unreachable-component",
  ]);
  const [, update] = repaired.messages as Json[];
  assert.deepEqual(update.updateComponents.components, [
    { id: "root", component: "Column", children: ["t"] },
    text("t"),
  ]);
  const strict = await expand(bare, { repair: false });
  assert.equal(strict.ok, false);
  assert.deepEqual(strict.problems.map((p) => p.code), ["invalid-input"]);
  const strictObject = await expand({ components: bare }, { repair: false });
  // The root's type is unreadable, so its child is not reached either.
  assert.deepEqual(codes(strictObject).open, [
    "invalid-component",
    "missing-id",
    "unreachable-component",
  ]);
});

Deno.test("the input itself: an object with a non-empty components list, data an object", async () => {
  for (
    const [input, path] of [
      ["a string", ""],
      [{ components: "x" }, "/components"],
      [{ components: [] }, "/components"],
      [{ components: [text("root")], data: [1] }, "/data"],
      [{ components: [text("root")], surfaceId: "" }, "/surfaceId"],
      [{ components: [text("root")], catalogId: "https://example.com/none" }, "/catalogId"],
    ] as const
  ) {
    const result = await expand(input);
    assert.equal(result.ok, false, JSON.stringify(input));
    assert.equal(result.problems.find((p) => !p.repaired)?.path, path, JSON.stringify(input));
  }
  const messages = await expand({ messages: [] });
  assert.match(messages.problems[0].message, /not A2UI messages/);
});

Deno.test("a catalog whose validators cannot load is reported as a problem; nothing throws", async () => {
  const offer = standardOffer();
  const [offered] = offer.catalogs;
  const missing = () => Promise.reject(new Error("the package is missing"));
  offer.catalogs[0] = { ...offered, catalog: { ...offered.catalog, validators: missing } };
  const result = await expandSurface({ catalogId: "standard", components: [text("root")] }, offer);
  assert.equal(result.ok, false);
  assert.equal(result.catalogId, BASIC_CATALOG_ID);
  assert.deepEqual(result.messages, []);
  assert.deepEqual(result.problems, [{
    code: "unavailable-catalog",
    path: "/catalogId",
    message: `the catalog ${BASIC_CATALOG_ID} cannot be loaded: the package is missing`,
  }]);
});

Deno.test("surface ids are unique per run: a repeated id gets a suffix, a missing one is made", async () => {
  const offer = standardOffer();
  const ids = new SurfaceIds("ui-run1");
  const input = { surfaceId: "card", components: [text("root")] };
  assert.equal((await expandSurface(input, offer, ids)).surfaceId, "card");
  assert.equal((await expandSurface(input, offer, ids)).surfaceId, "card-2");
  const made = await expandSurface({ components: [text("root")] }, offer, ids);
  assert.equal(made.surfaceId, "ui-run1-3");
  const odd = await expandSurface(
    { surfaceId: "my card!", components: [text("root")] },
    offer,
    ids,
  );
  assert.equal(odd.surfaceId, "my-card-");
  assert.equal(odd.problems[0].code, "invalid-surface-id");
});

Deno.test("POST /api/ui/preview checks an input against a workspace: allow and deny", async () => {
  const t = await startService({
    config: {
      workspaces: [
        { id: "deny", name: "Deny", generativeUi: { deny: ["Image"], repair: false } },
        { id: "allow", name: "Allow", generativeUi: { allow: ["Column", "Text"] } },
        { id: "off", name: "Off", generativeUi: false },
      ],
    },
  });
  try {
    const image = {
      components: [
        { id: "root", component: "Column", children: ["i", "t"] },
        { id: "i", component: "Image", url: "https://example.com/a.png" },
        text("t"),
      ],
    };
    const denied = await post(t, "/api/ui/preview", { input: image, workspaceId: "deny" });
    assert.equal(denied.status, 200);
    assert.equal(denied.body.ok, false);
    assert.deepEqual(denied.body.messages, []);
    assert.deepEqual(denied.body.problems, [{
      code: "denied-component",
      path: "/components/1/component",
      message: "Image is not allowed in this workspace",
    }]);
    const outside = await post(t, "/api/ui/preview", { input: image, workspaceId: "allow" });
    assert.deepEqual(outside.body.problems.map((p: Json) => p.code), ["denied-component"]);
    const allowed = await post(t, "/api/ui/preview", {
      input: { ...image, components: [image.components[0], text("i"), text("t")] },
      workspaceId: "allow",
    });
    assert.equal(allowed.body.ok, true);
    // No workspace: every catalog, nothing denied.
    const open = await post(t, "/api/ui/preview", { input: image });
    assert.equal(open.body.ok, true);
    await assertRenderable(open.body.messages);
    // Repair can be overridden per preview.
    const strict = await post(t, "/api/ui/preview", {
      input: { components: [text("a"), text("b")] },
      repair: false,
    });
    assert.deepEqual(strict.body.problems.map((p: Json) => p.code), ["missing-root"]);
    const off = await post(t, "/api/ui/preview", { input: image, workspaceId: "off" });
    assert.equal(off.status, 404);
    const bad = await post(t, "/api/ui/preview", { workspaceId: "deny" });
    assert.equal(bad.status, 400);
  } finally {
    await t.close();
  }
});
