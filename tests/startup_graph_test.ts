/**
 * Startup stays light: `main.ts`, `lass serve` and opening Lass statically load no npm package (the
 * config's schemas and zod load with the first validation); the SDKs load on first use.
 */
import assert from "node:assert/strict";

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/** The npm packages a module reaches through static imports. */
async function staticPackages(path: string): Promise<string[]> {
  return (await staticGraph(path)).packages;
}

/** What a module reaches through static imports: npm packages, `node:` modules, own files. */
async function staticGraph(
  path: string,
): Promise<{ packages: string[]; builtins: string[]; files: string[] }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(path, import.meta.url).pathname],
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.equal(output.code, 0);
  const info = JSON.parse(new TextDecoder().decode(output.stdout));
  const modules = new Map<string, InfoModule>(
    info.modules.map((module: InfoModule) => [module.specifier, module]),
  );
  const seen = new Set<string>();
  const packages = new Set<string>();
  const builtins = new Set<string>();
  const stack: string[] = [...info.roots];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      const target = dependency.code?.specifier;
      if (!target || dependency.isDynamic) continue;
      if (target.startsWith("npm:")) {
        packages.add(target.replace(/^npm:\/?/, "").replace(/@[^@/]+(\/.*)?$/, ""));
      } else if (target.startsWith("node:")) builtins.add(target);
      else stack.push(target);
    }
  }
  const root = new URL("../", import.meta.url).href;
  return {
    packages: [...packages].sort(),
    builtins: [...builtins].sort(),
    files: [...seen].filter((file) => file.startsWith(root)).map((file) => file.slice(root.length))
      .sort(),
  };
}

Deno.test("main.ts and lass serve reach no SDK (AI SDK, MCP, A2A, AG-UI, yaml) through static imports", async () => {
  assert.deepEqual(await staticPackages("../main.ts"), []);
  assert.deepEqual(await staticPackages("../cli/serve.ts"), []);
  assert.deepEqual(await staticPackages("../lass.ts"), []);
});

Deno.test("pricing a turn reaches the price catalog only by a dynamic import, on first use", async () => {
  for (const path of ["../core/llm/cost.ts", "../core/chat/run.ts", "../core/evals/runner.ts"]) {
    assert.deepEqual(
      (await staticPackages(path)).filter((name) => name.startsWith("@tokenlens/")),
      [],
      path,
    );
  }
});

Deno.test("describing the render tool reaches no A2UI package, date-fns or zod-to-json-schema", async () => {
  // A chat turn lists the catalogs and builds the tool; web_core loads with the first surface.
  for (
    const path of [
      "../core/genui/registry.ts",
      "../core/genui/standard_catalog.ts",
      "../core/genui/render_tool.ts",
      "../core/chat/ui_tools.ts",
    ]
  ) {
    const heavy = (await staticPackages(path)).filter((name) =>
      /^(@a2ui\/|date-fns|lit|zod-to-json-schema)/.test(name)
    );
    assert.deepEqual(heavy, [], path);
  }
});

Deno.test("opening Lass loads no route module but health, no Node process or crypto module, no tool-server session code", async () => {
  const { builtins, files } = await staticGraph("../lass.ts");
  // node:process and node:crypto cost a start a few dozen ms; they load on first use.
  assert.deepEqual(builtins.filter((name) => /process|crypto/.test(name)), []);
  const routes = files.filter((file) => file.startsWith("routes/"));
  for (const module of ["routes/table.ts", "routes/chat.ts", "routes/home.ts", "routes/mcp.ts"]) {
    assert.ok(!routes.includes(module), `${module} loads with the first request, not at start`);
  }
  assert.deepEqual(
    files.filter((file) =>
      file.startsWith("core/mcp/session/") && file !== "core/mcp/session/trace.ts"
    ),
    [],
  );
});

Deno.test("the UI staleness check that lass serve runs once it listens reaches no Node module", async () => {
  // The Node layer (node:fs first of all) costs a start several MB and about 20 ms of CPU; the
  // builder, which uses it, loads only for a stale build.
  const { builtins, packages, files } = await staticGraph("../scripts/ui_stale.ts");
  assert.deepEqual({ builtins, packages }, { builtins: [], packages: [] });
  assert.ok(!files.includes("scripts/build_ui.ts"));
});

Deno.test("OpenTelemetry loads only when telemetry is on: the service, chat and MCP sessions reach none of it statically", async () => {
  for (
    const path of [
      "../lass.ts",
      "../core/chat/run.ts",
      "../core/chat/model_turn.ts",
      "../core/mcp/session/client.ts",
      "../core/evals/runner.ts",
    ]
  ) {
    const otel = (await staticPackages(path)).filter((name) => name.startsWith("@opentelemetry/"));
    assert.deepEqual(otel, [], path);
  }
});
