/** Pure helpers of the web UI: command lines, reference problems of a raw config, A2UI titles. */
import assert from "node:assert/strict";
import { headingRepeats } from "../islands/genui/a2ui_title.ts";
import { commandParts, splitCommandLine } from "../islands/settings/command_line.ts";
import { referenceProblems, withReferenceProblems } from "../islands/settings/raw_refs.ts";

Deno.test("a command line splits into words as a POSIX shell splits them", () => {
  assert.deepEqual(splitCommandLine(`npx -y @scope/server --flag`), [
    "npx",
    "-y",
    "@scope/server",
    "--flag",
  ]);
  assert.deepEqual(splitCommandLine(`"/opt/My Tools/srv" --name 'a b' c\\ d "x\\"y" ''`), [
    "/opt/My Tools/srv",
    "--name",
    "a b",
    "c d",
    'x"y',
    "",
  ]);
  assert.equal(splitCommandLine(`node "unfinished`), null);
  assert.deepEqual(commandParts("  uvx   mcp-server-git "), {
    command: "uvx",
    args: ["mcp-server-git"],
  });
  assert.equal(commandParts("npx"), undefined, "one word stays as it is");
  assert.equal(commandParts(`"/opt/My Tools/srv"`), undefined);
  assert.equal(commandParts(`npx 'open`), undefined);
});

Deno.test("reference problems of a raw config are found beside the server's schema errors", () => {
  const config = {
    llms: [{ id: "a", temperature: "hot" }, { id: "a" }],
    mcpServers: [{ id: "demo" }],
    workspaces: [
      {
        id: "w",
        llmId: "nope",
        agentId: "ghost",
        mcpServerIds: ["demo", "gone"],
        skillIds: ["s"],
        generativeUi: { catalogIds: ["c"] },
      },
    ],
    activeWorkspaceId: "other",
  };
  assert.deepEqual(referenceProblems(config), [
    { path: "llms.1.id", message: 'duplicate id "a" (first used at llms.0)' },
    { path: "workspaces.0.llmId", message: 'no llms record has id "nope"' },
    { path: "workspaces.0.agentId", message: 'no agents record has id "ghost"' },
    { path: "workspaces.0.mcpServerIds.1", message: 'no mcpServers record has id "gone"' },
    { path: "workspaces.0.skillIds.0", message: 'no skills record has id "s"' },
    { path: "workspaces.0.generativeUi.catalogIds.0", message: 'no catalogs record has id "c"' },
    { path: "activeWorkspaceId", message: 'no workspaces record has id "other"' },
  ]);
  const schema = { path: "llms.0.temperature", message: "expected number" };
  const reported = { path: "workspaces.0.llmId", message: 'no llms record has id "nope"' };
  const merged = withReferenceProblems(config, [schema, reported]);
  assert.deepEqual(merged.slice(0, 2), [schema, reported]);
  assert.equal(merged.length, 8, "what the server reported is not listed twice");
  assert.deepEqual(referenceProblems({ workspaces: "not a list", llms: [null, 3] }), []);
});

Deno.test("an A2UI title is drawn once when the surface's heading says it", () => {
  const messages = [
    { version: "v0.9", createSurface: { surfaceId: "s", catalogId: "c" } },
    {
      version: "v0.9",
      updateComponents: {
        surfaceId: "s",
        components: [{ id: "h", component: "Text", text: "Sign up", variant: "h2" }],
      },
    },
  ];
  assert.equal(headingRepeats(messages, "Sign up"), true);
  assert.equal(headingRepeats(messages, " sign UP "), true);
  assert.equal(headingRepeats(messages, "Register"), false);
  const body = structuredClone(messages);
  (body[1].updateComponents!.components[0] as { variant?: string }).variant = "body";
  assert.equal(headingRepeats(body, "Sign up"), false, "body text is not a heading");
  assert.equal(headingRepeats("not messages", "Sign up"), false);
});
