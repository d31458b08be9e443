/**
 * A tool result that breaks the tool's output schema fails the call the same way whether it came
 * through the SDK's `callTool` (2025) or through MCP Tasks (every call to a 2026 server with the
 * tasks extension, which bypasses `callTool`).
 */
import assert from "node:assert/strict";
import { configWithServers, post, startService } from "../_helpers.ts";
import { startHttp, V2_SERVER } from "../_v2_fixtures.ts";

for (const era of ["modern", "legacy"] as const) {
  Deno.test(`a result that breaks its output schema fails the call (${era} era)`, async () => {
    await using peer = await startHttp(V2_SERVER, ["--era", era, "--transport", "http"]);
    const t = await startService({
      config: configWithServers([{
        id: "v2",
        name: "V2 fixture",
        transport: "http",
        url: peer.url.href,
        oauth: false,
        protocolEra: era,
      }]),
    });
    try {
      const state = (await post(t, "/api/mcp/v2/connect")).body;
      assert.equal(state.status, "connected", state.error);
      assert.equal(state.era, era);
      const wrong = await post(t, "/api/mcp/v2/call", { tool: "wrong_sum", args: {} });
      assert.equal(wrong.status, 502, JSON.stringify(wrong.body));
      assert.equal(wrong.body.error.code, "upstream-error");
      assert.match(
        wrong.body.error.message,
        /^wrong_sum on v2 failed: .*Structured content does not match the tool's output schema: .*sum/,
      );
      // Each error at its path.
      assert.deepEqual(wrong.body.error.details, [
        { path: "structuredContent/sum", message: "must be number" },
      ]);
      // A result that fits goes through; a tool without an output schema has nothing checked.
      const echo = await post(t, "/api/mcp/v2/call", { tool: "echo", args: { text: "hi" } });
      assert.equal(echo.status, 200, JSON.stringify(echo.body));
      assert.deepEqual(echo.body.result.structuredContent, { text: "hi" });
      assert.equal(echo.body.outputSchema, undefined);
    } finally {
      await t.close();
    }
  });
}
