/** SEP-2243 `Mcp-Param-*` headers for Lass's own `tools/call` path. */
import assert from "node:assert/strict";
import { encodeParamValue, paramHeaders } from "../../core/mcp/session/param_headers.ts";

Deno.test("arguments marked x-mcp-header become Mcp-Param headers; others and non-primitives do not", () => {
  const schema = {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      count: { type: "integer", "x-mcp-header": "Count" },
      dry: { type: "boolean", "x-mcp-header": "Dry" },
      plain: { type: "string" },
      nested: {
        type: "object",
        properties: { tenant: { type: "string", "x-mcp-header": "Tenant" } },
      },
      list: { type: "array", items: { type: "string", "x-mcp-header": "Nope" } },
      bad: { type: "string", "x-mcp-header": "has space" },
    },
  };
  assert.deepEqual(
    paramHeaders(schema, {
      region: "eu-west-1",
      count: 3,
      dry: false,
      plain: "x",
      nested: { tenant: "acme" },
      list: ["a"],
      bad: "y",
    }),
    {
      "Mcp-Param-Region": "eu-west-1",
      "Mcp-Param-Count": "3",
      "Mcp-Param-Dry": "false",
      "Mcp-Param-Tenant": "acme",
    },
  );
  assert.deepEqual(paramHeaders(schema, { region: null }), {});
});

Deno.test("values that are not plain ASCII field text go in the Base64 sentinel", () => {
  assert.equal(encodeParamValue("plain"), "plain");
  assert.equal(encodeParamValue("Zürich"), "=?base64?WsO8cmljaA==?=");
  assert.equal(encodeParamValue(" padded"), `=?base64?${btoa(" padded")}?=`);
  assert.equal(encodeParamValue(""), "=?base64??=");
  assert.equal(encodeParamValue("=?base64?x?="), `=?base64?${btoa("=?base64?x?=")}?=`);
});
