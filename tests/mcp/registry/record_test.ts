/** A `server.json` package or remote as a record: the rules that the fake registry's servers leave out. */
import assert from "node:assert/strict";
import { LassError } from "../../../core/errors.ts";
import { planPackage, planRemote } from "../../../core/mcp/registry/record.ts";
import type { RegistryPackage, ServerJson } from "../../../wire/registry.ts";

function serverWith(...packages: RegistryPackage[]): ServerJson {
  return { name: "io.example/tool", version: "1.0.0", packages };
}

function refusal(run: () => unknown): { message: string; path: string } {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof LassError);
    assert.equal(error.code, "invalid-request");
    return { message: error.message, path: error.details?.[0].path ?? "" };
  }
  assert.fail("it was not refused");
}

Deno.test("a package from another registry, a runtime hint Lass does not use and an untagged image", () => {
  const npm = planPackage(
    serverWith({
      registryType: "npm",
      registryBaseUrl: "https://npm.example.com/",
      identifier: "@corp/tool",
      version: "2.0.0",
      runtimeHint: "bunx",
      runtimeArguments: [{
        type: "named",
        name: "--node-options",
        value: "--max-old-space-size=512",
      }],
      packageArguments: [{
        type: "named",
        name: "--dir",
        valueHint: "dir",
        isRepeated: true,
        default: ".",
      }],
    }),
    0,
  );
  assert.deepEqual(npm.draft, {
    transport: "stdio",
    command: "npx",
    args: [
      "-y",
      "--registry=https://npm.example.com",
      "--node-options",
      "--max-old-space-size=512",
      "@corp/tool@2.0.0",
      "--dir",
      ".",
    ],
  });
  assert.deepEqual(npm.notes, [
    "the publisher suggests running it with bunx; Lass uses npx",
    "argument --dir may be repeated; the record has it once (add more in args)",
  ]);
  const oci = planPackage(
    serverWith({ registryType: "oci", identifier: "ghcr.io/corp/tool", version: "2.0.0" }),
    0,
  );
  assert.deepEqual(oci.draft.args, ["run", "-i", "--rm", "ghcr.io/corp/tool:2.0.0"]);
  const digest = planPackage(
    serverWith({ registryType: "oci", identifier: "ghcr.io/corp/tool@sha256:abc" }),
    0,
  );
  assert.deepEqual(digest.draft.args, ["run", "-i", "--rm", "ghcr.io/corp/tool@sha256:abc"]);
});

Deno.test("packages Lass cannot start are refused with what to do instead", () => {
  assert.deepEqual(
    refusal(() => planPackage(serverWith({ registryType: "cargo", identifier: "tool" }), 0)),
    {
      message: "the package tool comes from the cargo registry; Lass adds npm, pypi, oci and " +
        "nuget packages (and remotes)",
      path: "packages.0.registryType",
    },
  );
  const http = refusal(() =>
    planPackage(
      serverWith({
        registryType: "npm",
        identifier: "tool",
        version: "1.0.0",
        transport: { type: "streamable-http", url: "http://localhost:{port}/mcp" },
      }),
      0,
    )
  );
  assert.equal(http.path, "packages.0.transport.type");
  assert.match(http.message, /serves streamable-http at http:\/\/localhost:\{port\}\/mcp/);
  assert.deepEqual(
    refusal(() => planPackage(serverWith({ registryType: "pypi", identifier: "tool" }), 0)),
    { message: "the pypi package tool names no version", path: "packages.0.version" },
  );
  assert.equal(
    refusal(() =>
      planRemote({ name: "io.example/r", remotes: [{ type: "websocket", url: "wss://x" }] }, 0)
    )
      .path,
    "remotes.0.type",
  );
});

Deno.test("an optional variable with no value fills its placeholder with nothing; a given one with its value", () => {
  const server: ServerJson = {
    name: "io.example/r",
    remotes: [{
      type: "streamable-http",
      url: "https://mcp.example.com/{path}",
      variables: { path: { default: "mcp" } },
      headers: [{ name: "X-Trace", value: "id-{trace}", variables: { trace: {} } }],
    }],
  };
  assert.deepEqual(planRemote(server, 0).draft, {
    transport: "http",
    url: "https://mcp.example.com/mcp",
    headers: { "X-Trace": "id-" },
  });
  assert.deepEqual(planRemote(server, 0, { "headers.X-Trace.trace": "7" }).draft.headers, {
    "X-Trace": "id-7",
  });
});
