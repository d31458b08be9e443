/** Agent errors never carry the secrets of the agent's URL (a resolved reference, credentials). */
import assert from "node:assert/strict";
import { chat, DEMO_LLM, user } from "../_chat.ts";
import { post, startService } from "../_helpers.ts";
import { freePort } from "../_everything.ts";

Deno.test("an unreachable agent's errors name no credential of its URL, literal or from the environment", async () => {
  const port = freePort();
  const agents = [
    {
      id: "literal",
      name: "Literal",
      protocol: "a2a",
      url: `http://lass:literal-pass-91@127.0.0.1:${port}/a2a`,
    },
    { id: "ref", name: "From env", protocol: "ag-ui", url: "${AGENT_URL}" },
  ];
  const t = await startService({
    env: { AGENT_URL: `http://127.0.0.1:${port}/agui?token=env-token-7731` },
    config: {
      llms: [DEMO_LLM],
      agents,
      workspaces: [{ id: "w", name: "W", llmId: "demo" }],
      activeWorkspaceId: "w",
    },
  });
  try {
    for (const agent of agents) {
      const tested = await post(t, "/api/agents/test", { agent });
      assert.equal(tested.body.ok, false);
      const { chunks } = await chat(t, { agentId: agent.id, messages: [user("hello")] });
      const error = chunks.find((chunk) => chunk.type === "error");
      assert.ok(error, `the turn with ${agent.id} ends in an error`);
      const seen = JSON.stringify([tested.body, error, t.service.events.history()]);
      for (const secret of ["literal-pass-91", "env-token-7731"]) {
        assert.ok(!seen.includes(secret), `${secret} appears in ${seen.slice(0, 2000)}`);
      }
    }
  } finally {
    await t.close();
  }
});
