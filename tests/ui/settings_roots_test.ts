/** The roots rows of the tool-server forms: paths made `file://` URIs, rows stored, errors by row. */
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { McpServerSchema } from "../../wire/config/mcp_server_schema.ts";
import { asRootUri, cleanRoots, errorsByRow } from "../../islands/settings/roots.ts";

Deno.test("an absolute path typed as a root becomes the file:// URI Node's pathToFileURL makes", () => {
  for (
    const path of [
      "/home/me/project",
      "/home/me/my project",
      "/srv/a#b/c?d",
      "/tmp/100%/ünï",
      "/x/[brackets]/semi;colon",
    ]
  ) {
    const uri = asRootUri(`  ${path} `);
    assert.equal(uri, pathToFileURL(path).href, path);
    assert.equal(decodeURIComponent(new URL(uri).pathname), path, "the URI names the path");
  }
  // Anything else stays as typed (trimmed), for the server to accept or refuse.
  assert.equal(asRootUri(" file:///home/me "), "file:///home/me");
  assert.equal(asRootUri("https://x"), "https://x");
  assert.equal(asRootUri("relative/path"), "relative/path");
  assert.equal(asRootUri("//server/share"), "//server/share");
  assert.equal(asRootUri("C:\\Users\\me"), "C:\\Users\\me");
});

Deno.test("roots rows are stored without empty rows or names, and the config accepts them", () => {
  const roots = cleanRoots([
    { uri: "/home/me/project", name: " Project " },
    { uri: "  ", name: "forgotten" },
    { uri: "file:///tmp/other", name: "" },
  ]);
  assert.deepEqual(roots, [
    { uri: "file:///home/me/project", name: "Project" },
    { uri: "file:///tmp/other" },
  ]);
  const record = { id: "files", name: "Files", transport: "stdio", command: "x", roots };
  assert.equal(McpServerSchema.safeParse(record).success, true);
});

Deno.test("a save's errors at roots.<k> are shown at the row root k came from", () => {
  const rows = [{ uri: "" }, { uri: "https://x" }, { uri: "file:///ok" }, { uri: "ftp://y" }];
  const byRow = errorsByRow({
    "roots.0.uri": "must be a file:// URI",
    "roots.2": "bad root",
    "roots.2.name": "must be a string",
    "url": "not about roots",
    "roots.7.uri": "a root no row stored",
  }, rows);
  assert.deepEqual([...byRow], [
    [1, "must be a file:// URI"],
    [3, "bad root; name: must be a string"],
  ]);
});
