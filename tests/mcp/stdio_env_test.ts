/** What a stdio tool server's process sees of Lass's environment: the SDK's few defaults, `inheritEnv`, `env`. */
import assert from "node:assert/strict";
import { configWithServers, post, startService } from "../_helpers.ts";

/** The variables the MCP SDK passes to every stdio server (on POSIX systems). */
const SDK_DEFAULTS = new Set(["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"]);

Deno.test("inheritEnv passes only the named variables of Lass's environment to a stdio server; env wins", async () => {
  const path = new URL("../fixtures/env_server.ts", import.meta.url).pathname;
  const server = {
    id: "envs",
    name: "Env echo",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", path],
    inheritEnv: ["LASS_SHARED", "LASS_BOTH", "LASS_UNSET"],
    env: { LASS_BOTH: "from env", LASS_OWN: "own" },
  };
  const t = await startService({
    config: configWithServers([server]),
    env: { LASS_SHARED: "shared", LASS_BOTH: "inherited", LASS_PRIVATE: "private" },
  });
  try {
    const called = await post(t, "/api/mcp/envs/call", { tool: "env", args: {} });
    assert.equal(called.status, 200, JSON.stringify(called.body));
    const seen = JSON.parse(called.body.result.content[0].text) as Record<string, string>;
    assert.equal(seen.LASS_SHARED, "shared");
    assert.equal(seen.LASS_BOTH, "from env");
    assert.equal(seen.LASS_OWN, "own");
    assert.equal("LASS_PRIVATE" in seen, false, "a variable not named is not passed");
    assert.equal("LASS_UNSET" in seen, false, "a named variable that is not set is left out");
    const others = Object.keys(seen).filter((name) =>
      !SDK_DEFAULTS.has(name) && !["LASS_SHARED", "LASS_BOTH", "LASS_OWN"].includes(name)
    );
    assert.deepEqual(others, [], "nothing else of the test process's environment");
  } finally {
    await t.close();
  }
});

Deno.test("inheritEnv takes variable names, on stdio servers only", async () => {
  const t = await startService();
  try {
    const base = { id: "s", name: "S", transport: "stdio", command: "x" };
    const config = (server: Record<string, unknown>) => ({ json: configWithServers([server]) });
    const bad = await t.call("/api/config", {
      method: "PUT",
      ...config({ ...base, inheritEnv: ["OK_NAME", "not a name", "*"] }),
    }).then((r) => r.json());
    const paths = bad.error.details.map((d: { path: string }) => d.path);
    assert.deepEqual(paths, ["mcpServers.0.inheritEnv.1", "mcpServers.0.inheritEnv.2"]);
    const remote = await t.call("/api/config", {
      method: "PUT",
      ...config({ id: "r", name: "R", transport: "http", url: "http://x.test", inheritEnv: ["A"] }),
    }).then((r) => r.json());
    assert.deepEqual(
      remote.error.details.map((d: { path: string; message: string }) => [d.path, d.message]),
      [["mcpServers.0.inheritEnv", "applies only to stdio"]],
    );
  } finally {
    await t.close();
  }
});
