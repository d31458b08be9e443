import { startFakeVendor } from "../tests/fixtures/fake_vendors.ts";
const fake = await startFakeVendor();
fake.script([{ text: ["The", " sum", " of", " 2", " and", " 3", " is", " 5", "."] }]);
const dir = await Deno.makeTempDir();
const tools = Deno.args[0] === "tools";
const config = { llms: [{ id: "fake", name: "Fake", provider: "compatible-api", model: "m", baseURL: fake.url + "/compatible/v1", apiKey: "env:FAKE_KEY" }], mcpServers: [{ id: "demo", name: "Demo", transport: "stdio", command: "service:demo" }], workspaces: [{ id: "w", name: "w", llmId: "fake", generativeUi: false, mcpServerIds: tools ? ["demo"] : [] }], activeWorkspaceId: "w" };
await Deno.writeTextFile(`${dir}/service.json`, JSON.stringify(config));
const child = new Deno.Command(Deno.execPath(), { args: ["run", "-A", "--v8-flags=--expose-gc", "main.ts", "--port", "0", "--config", `${dir}/service.json`, "--data-dir", `${dir}/data`], env: { LASS_TOKEN: "t", FAKE_KEY: "k" }, stdout: "piped", stderr: "inherit" }).spawn();
const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
let text = ""; while (!/ready: .*:(\d+)\//.test(text)) text += (await reader.read()).value;
const port = /ready: .*:(\d+)\//.exec(text)![1];
const headers = { "x-service-token": "t", "content-type": "application/json" };
const rss = () => (Number(/VmRSS:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${child.pid}/status`))![1]) / 1024).toFixed(1);
console.log("start", rss());
for (let round = 0; round < 6; round++) {
  const t0 = performance.now();
  for (let i = 0; i < 300; i++) { fake.requests.length = 0; const r = await fetch(`http://127.0.0.1:${port}/api/chat`, { method: "POST", headers, body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }) }); await r.text(); }
  console.log("after", (round + 1) * 300, "turns: rss", rss(), "MB, ms/turn", ((performance.now() - t0) / 300).toFixed(2));
}
child.kill("SIGTERM"); await child.status; await fake.close();
