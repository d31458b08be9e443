import assert from "node:assert/strict";
import { toolInfo } from "../../core/mcp/manager/state.ts";
import { modelToolName } from "../../core/mcp/tool_names.ts";

Deno.test("model tool names are <serverId>__<tool>", () => {
  assert.equal(modelToolName("demo", "add"), "demo__add");
  assert.equal(modelToolName("git-hub", "search_code"), "git-hub__search_code");
});

Deno.test("names with unsafe characters or over 64 characters get a stable hash suffix", () => {
  const dotted = modelToolName("gh", "repo.search");
  assert.match(dotted, /^gh__repo_search_[0-9a-f]{8}$/);
  assert.notEqual(dotted, modelToolName("gh", "repo_search"), "no collision with the safe twin");
  const long = modelToolName("server", "x".repeat(80));
  assert.equal(long.length, 64);
  assert.match(long, /_[0-9a-f]{8}$/);
  assert.equal(long, modelToolName("server", "x".repeat(80)), "stable");
  assert.notEqual(long, modelToolName("server", "x".repeat(81)));
  for (const name of [dotted, long]) assert.match(name, /^[A-Za-z0-9_-]{1,64}$/);
});

Deno.test("disabled tools and app-only tools are hidden from the model but listed", () => {
  const base = { inputSchema: { type: "object" as const } };
  const disabled = toolInfo("s", { name: "a", ...base }, ["a"]);
  assert.deepEqual([disabled.disabled, disabled.modelVisible], [true, false]);
  const appOnly = toolInfo("s", {
    name: "refresh",
    ...base,
    _meta: { ui: { resourceUri: "ui://s/app.html", visibility: ["app"] } },
  }, []);
  assert.deepEqual([appOnly.disabled, appOnly.modelVisible], [false, false]);
  assert.deepEqual(appOnly.ui, { resourceUri: "ui://s/app.html", visibility: ["app"] });
  const both = toolInfo("s", {
    name: "show",
    ...base,
    _meta: { ui: { resourceUri: "ui://s/app.html", visibility: ["model", "app"] } },
  }, []);
  assert.equal(both.modelVisible, true);
  const legacy = toolInfo("s", {
    name: "old",
    ...base,
    _meta: { "ui/resourceUri": "ui://s/old.html" },
  }, []);
  assert.equal(legacy.ui?.resourceUri, "ui://s/old.html");
  assert.equal(toolInfo("s", { name: "plain", ...base }, []).ui, undefined);
});
