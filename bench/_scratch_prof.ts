const dir = await Deno.makeTempDir();
const config = { llms: [{ id: "demo", name: "Demo", provider: "compatible-api", model: "demo", baseURL: "service:demo" }], mcpServers: [{ id: "demo", name: "Demo", transport: "stdio", command: "service:demo" }], workspaces: [{ id: "w", name: "w", llmId: "demo", mcpServerIds: ["demo"], generativeUi: false }], activeWorkspaceId: "w" };
await Deno.writeTextFile(`${dir}/service.json`, JSON.stringify(config));
const child = new Deno.Command(Deno.execPath(), { args: ["run", "-A", "--cpu-prof", "--cpu-prof-dir=/tmp/prof", "main.ts", "--port", "0", "--config", `${dir}/service.json`, "--data-dir", `${dir}/data`], env: { LASS_TOKEN: "t" }, stdout: "piped", stderr: "inherit" }).spawn();
const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
let text = ""; while (!/ready: .*:(\d+)\//.test(text)) text += (await reader.read()).value;
const port = /ready: .*:(\d+)\//.exec(text)![1];
const headers = { "x-service-token": "t", "content-type": "application/json" };
const prompt = Deno.args[0];
async function one() { const r = await fetch(`http://127.0.0.1:${port}/api/chat`, { method: "POST", headers, body: JSON.stringify({ messages: [{ role: "user", content: prompt }] }) }); const t = await r.text(); if (!t.includes("\"finish\"")) throw new Error(t.slice(0,200)); }
for (let i = 0; i < 4; i++) { const t0 = performance.now(); await Promise.all(Array.from({ length: 200 }, one)); console.log("burst", (performance.now() - t0).toFixed(0)); }
child.kill("SIGTERM"); await child.status;
