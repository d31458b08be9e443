/** Pure helpers of the web UI: command lines and A2UI titles. */
import assert from "node:assert/strict";
import { headingRepeats } from "../../islands/genui/a2ui_title.ts";
import {
  commandLineOf,
  commandParts,
  shellQuote,
  splitCommandLine,
} from "../../islands/settings/command_line.ts";

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

Deno.test("a command and its arguments show shell-quoted, and split back into the same words", () => {
  assert.equal(
    commandLineOf("node", ["-e", "console.error('boom…'); process.exit(3)"]),
    `node -e 'console.error('\\''boom…'\\''); process.exit(3)'`,
  );
  assert.equal(
    commandLineOf("npx", ["-y", "@scope/server", "--dir=/tmp/a,b"]),
    "npx -y @scope/server --dir=/tmp/a,b",
  );
  assert.equal(shellQuote(""), "''");
  assert.equal(shellQuote("a b"), "'a b'");
  assert.equal(shellQuote("$HOME"), "'$HOME'");
  const words = ["/opt/My Tools/srv", "it's", 'x"y', "", "a;b", "plain"];
  assert.deepEqual(splitCommandLine(commandLineOf(words[0], words.slice(1))), words);
});
